//! The letters a game's boards are written in: every character of every
//! string literal its rules (and the helpers and constants they use) write.
//! Boards over other letters are ones the rules never look for, so they
//! are left out of the positions a decomposition is verified on.

use crate::eval::ir::{GameKind, Ir, IrKind, Program};
use crate::eval::Value;
use std::collections::BTreeSet;

/// The letters of the string literals reachable from these games' rules.
pub fn of_games(program: &Program, games: &[u32]) -> Vec<char> {
    let mut walk = Walk {
        program,
        letters: BTreeSet::new(),
        functions: BTreeSet::new(),
        consts: BTreeSet::new(),
    };
    for &g in games {
        match &program.games[g as usize].kind {
            GameKind::Rules { moves, lose, parts } => {
                for m in moves {
                    for generator in &m.generators {
                        walk.ir(&generator.source);
                    }
                    if let Some(guard) = &m.guard {
                        walk.ir(guard);
                    }
                    walk.ir(&m.result);
                }
                lose.iter().chain(parts.iter()).for_each(|ir| walk.ir(ir));
            }
            GameKind::Alias(body) => walk.ir(body),
            GameKind::Octal(_) | GameKind::TakeBreak(_) => {}
        }
    }
    walk.letters.into_iter().collect()
}

struct Walk<'a> {
    program: &'a Program,
    letters: BTreeSet<char>,
    // Each helper and constant is read once, so recursion ends.
    functions: BTreeSet<u32>,
    consts: BTreeSet<u32>,
}

impl Walk<'_> {
    fn ir(&mut self, ir: &Ir) {
        match &ir.kind {
            IrKind::Lit(v) => self.value(v),
            IrKind::Local(_) => {}
            IrKind::Const(c) => {
                if self.consts.insert(*c) {
                    if let Some(def) = self.program.consts.get(*c as usize) {
                        self.ir(&def.value);
                    }
                }
            }
            IrKind::CallFn(f, args) => {
                if self.functions.insert(*f) {
                    if let Some(def) = self.program.functions.get(*f as usize) {
                        self.ir(&def.body);
                    }
                }
                args.iter().for_each(|a| self.ir(a));
            }
            IrKind::MakePos(_, args)
            | IrKind::Builtin(_, args)
            | IrKind::List(args)
            | IrKind::Set(args)
            | IrKind::Tuple(args) => args.iter().for_each(|a| self.ir(a)),
            IrKind::Comprehension { element, clauses } => {
                self.ir(element);
                for clause in clauses {
                    self.ir(&clause.generator.source);
                    if let Some(guard) = &clause.guard {
                        self.ir(guard);
                    }
                }
            }
            IrKind::If(a, b, c) => {
                self.ir(a);
                self.ir(b);
                self.ir(c);
            }
            IrKind::Unary(_, a) => self.ir(a),
            IrKind::Binary(_, a, b) | IrKind::Index(a, b) => {
                self.ir(a);
                self.ir(b);
            }
        }
    }

    fn value(&mut self, v: &Value) {
        match v {
            Value::Str(s) => self.letters.extend(s.chars()),
            Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => {
                xs.iter().for_each(|x| self.value(x))
            }
            _ => {}
        }
    }
}
