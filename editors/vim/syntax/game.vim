" Vim syntax file
" Language: grundy games (.game files)

if exists("b:current_syntax")
  finish
endif

" Definitions and the rules of a game.
syn keyword gameDefine const fn nextgroup=gameName skipwhite
" `game` before a name defines a game; elsewhere it is a parameter type.
syn match gameType "\<game\>"
syn match gameDefine "\<game\>\ze\s\+\h" nextgroup=gameName skipwhite
syn match gameName "\<\h\w*" contained
syn keyword gameRule move lose parts symmetry claim octal
" Control words and word operators.
syn keyword gameConditional if then else
syn keyword gameRepeat for
syn keyword gameOperator and or not in
syn keyword gameBoolean true false
" Parameter types.
syn keyword gameType nat int bool str grid

" The built-in functions, where they are called.
syn match gameBuiltin "\<\(len\|count\|min\|max\|sum\|sort\|reverse\|transpose\|rotate\|mirror\|set_at\|remove_at\|slice\|runs\|regions\|xor\|mex\|abs\|pow\|popcount\|indices\|has\|subsets\|product\|all\|any\|repeat\|join\|list\|set\|value\|outcome\|misere\|height\|moves\|winning\)\ze\s*("

syn match gameNumber "\<\d\+\>"
syn match gameOctal "\<\d\.\d*\>"
syn region gameString start=+"+ skip=+\\.+ end=+"+ end=+$+ contains=gameEscape
syn match gameEscape "\\." contained
syn match gameArrow "=>"
syn match gameComment "//.*$" contains=gameTodo,@Spell
syn keyword gameTodo TODO FIXME XXX contained

hi def link gameDefine Keyword
hi def link gameName Function
hi def link gameRule Statement
hi def link gameConditional Conditional
hi def link gameRepeat Repeat
hi def link gameOperator Operator
hi def link gameBoolean Boolean
hi def link gameType Type
hi def link gameBuiltin Function
hi def link gameNumber Number
hi def link gameOctal Float
hi def link gameString String
hi def link gameEscape SpecialChar
hi def link gameArrow Operator
hi def link gameComment Comment
hi def link gameTodo Todo

let b:current_syntax = "game"
