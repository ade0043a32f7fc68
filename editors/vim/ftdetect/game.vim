" .game files are games for grundy.
autocmd BufRead,BufNewFile *.game setfiletype game
