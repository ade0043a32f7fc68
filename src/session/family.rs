//! What a table runs over: the positions of one game whose arguments are
//! all fixed but one or two natural numbers, written as a position with
//! `_` in the free places (`Subtract({1, 4, 5}, _)`, `Wythoff(_, _)`), or
//! as the bare name of a game with one or two natural-number parameters.

use super::Session;
use crate::check;
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::ir::{Callable, IrKind};
use crate::eval::Value;
use crate::source::Span;
use crate::syntax::ast::{Expr, ExprKind};
use crate::syntax::parse_position;
use crate::types::Type;

/// A game with every argument fixed but one or two natural numbers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Family {
    pub game: u32,
    /// The arguments, with 0 in the free places.
    pub args: Vec<Value>,
    /// The places of the free numbers, in order: one or two of them.
    pub free: Vec<usize>,
}

impl Family {
    /// Every heap of a game with one natural-number parameter.
    pub fn heaps(game: u32) -> Family {
        Family {
            game,
            args: vec![Value::Int(0)],
            free: vec![0],
        }
    }

    /// Whether the family is the whole game: its one parameter is free.
    pub fn is_whole_game(&self) -> bool {
        self.args.len() == 1
    }

    /// The arguments with these numbers in the free places.
    pub fn at(&self, numbers: &[i64]) -> Vec<Value> {
        let mut args = self.args.clone();
        for (&place, &n) in self.free.iter().zip(numbers) {
            args[place] = Value::Int(n);
        }
        args
    }
}

impl Session {
    /// What a `table` or `plot` is asked of: a game's bare name, or a
    /// position with `_` for the free numbers.
    pub fn family(&mut self, text: &str) -> Result<Family, Errors> {
        let name = text.trim();
        if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return self.named_family(name);
        }
        let source = self.sources.add("<game>", text);
        let whole = Span::new(source, 0, text.len());
        self.asked = whole;
        let mut expr = parse_position(source, text)?;
        while let ExprKind::Group(inner) = expr.kind {
            expr = *inner;
        }
        let ExprKind::Call { name, args } = &mut expr.kind else {
            return Err(vec![Error::new(
                ErrorKind::NotAHeapGame {
                    name: text.to_string(),
                },
                whole,
            )]);
        };
        let free: Vec<usize> = (0..args.len())
            .filter(|&i| is_placeholder(&args[i]))
            .collect();
        match free.len() {
            0 => {
                // A `_` inside an argument, or any other mistake, says so.
                check::check_query(&expr, &self.interp.program, &mut self.warnings)?;
                return Err(vec![Error::new(
                    ErrorKind::NoPlaceholder {
                        position: text.trim().to_string(),
                    },
                    whole,
                )]);
            }
            1 | 2 => {}
            count => {
                let mut error =
                    Error::new(ErrorKind::TooManyPlaceholders { count }, args[free[2]].span);
                for &i in &free[..2] {
                    error = error.with_related(args[i].span, "a free number");
                }
                return Err(vec![error]);
            }
        }
        let program = &self.interp.program;
        if let Some(Callable::Game(g)) = program.callables.get(&name.name) {
            let game = &program.games[*g as usize];
            for &i in &free {
                match game.params.get(i) {
                    Some(param) if !param.ty.fits(&Type::Nat) => {
                        return Err(vec![Error::new(
                            ErrorKind::PlaceholderNotNat {
                                game: game.name.clone(),
                                param: param.name.clone(),
                                ty: param.ty.to_string(),
                            },
                            args[i].span,
                        )
                        .with_related(param.span, "the parameter")]);
                    }
                    _ => {}
                }
            }
        }
        // Checked with 0 in the free places, so that the rest is checked
        // as any position is.
        for &i in &free {
            args[i].kind = ExprKind::Int(0);
        }
        let (ir, frame_size, _) = check::check_query(&expr, program, &mut self.warnings)?;
        let IrKind::MakePos(game, irs) = ir.kind else {
            return Err(vec![Error::new(
                ErrorKind::NotAHeapGame {
                    name: text.trim().to_string(),
                },
                whole,
            )]);
        };
        let mut env = vec![Value::Int(0); frame_size];
        let mut values = Vec::with_capacity(irs.len());
        for ir in &irs {
            values.push(self.interp.eval(ir, &mut env).map_err(|e| vec![e])?);
        }
        self.interp
            .conform_args(game, &mut values, whole)
            .map_err(|e| vec![e])?;
        Ok(Family {
            game,
            args: values,
            free,
        })
    }

    /// A game named bare: every argument free, one or two of them.
    fn named_family(&mut self, name: &str) -> Result<Family, Errors> {
        let program = &self.interp.program;
        if let Some(Callable::Game(g)) = program.callables.get(name) {
            let params = &program.games[*g as usize].params;
            if params.len() == 2 && params.iter().all(|p| p.ty.fits(&Type::Nat)) {
                let game = *g;
                let source = self.sources.add("<game>", name);
                self.asked = Span::new(source, 0, name.len());
                return Ok(Family {
                    game,
                    args: vec![Value::Int(0); 2],
                    free: vec![0, 1],
                });
            }
        }
        self.heap_game(name).map(Family::heaps)
    }
}

fn is_placeholder(arg: &Expr) -> bool {
    matches!(&arg.kind, ExprKind::Var(name) if name == "_")
}

impl Session {
    /// Where the last game or position asked about was written, for
    /// errors about the request as a whole.
    pub fn asked(&self) -> Span {
        self.asked
    }

    /// The names of a family's free parameters, in order.
    pub fn free_names(&self, family: &Family) -> Vec<String> {
        let params = &self.interp.program.games[family.game as usize].params;
        family
            .free
            .iter()
            .map(|&i| params.get(i).map_or_else(|| "n".into(), |p| p.name.clone()))
            .collect()
    }
}
