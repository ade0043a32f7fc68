//! Well-typed random programs for the `programs` target: bytes from the
//! fuzzer steer the choices of a generator that only ever writes what the
//! checker accepts (games with typed parameters, moves, guards, `lose if`,
//! `parts =`, aliases, helpers, comprehensions, claims), so the fuzzer's
//! time goes into the interpreter and the solver, not into syntax errors.
//!
//! Every expression is built for a type it is known to have; the programs
//! may still fail when run (overflow, an index out of range, a loop, a
//! search past the state limit), which is what they are for.

use libfuzzer_sys::arbitrary::{Result, Unstructured};

/// The types the generator writes expressions of.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    Nat,
    Int,
    Bool,
    Str,
    /// A list of numbers, `[nat]`.
    Nats,
    Game,
}

impl Ty {
    fn written(self) -> &'static str {
        match self {
            Ty::Nat => "nat",
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Str => "str",
            Ty::Nats => "[nat]",
            Ty::Game => "game",
        }
    }

    /// Whether a value of this type may be passed where `want` is expected
    /// (a `nat` is an `int`; an `int` checks as a `nat` and fails only if
    /// negative when run).
    fn fits(self, want: Ty) -> bool {
        self == want || matches!((self, want), (Ty::Nat, Ty::Int) | (Ty::Int, Ty::Nat))
    }
}

/// A game or helper the program defines, as calls to it must be written.
#[derive(Clone, Debug)]
struct Callable {
    name: String,
    params: Vec<Ty>,
}

/// What an expression may refer to where it is written.
#[derive(Clone, Default)]
struct Scope {
    vars: Vec<(String, Ty)>,
    /// Whether solver questions (`value`, `outcome`, ...) are allowed: only
    /// in claims.
    queries: bool,
}

pub struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    games: Vec<Callable>,
    helpers: Vec<Callable>,
    fresh: usize,
}

/// How deep an expression may nest before only leaves are written.
const MAX_DEPTH: usize = 4;

impl<'a, 'b> Gen<'a, 'b> {
    pub fn new(u: &'a mut Unstructured<'b>) -> Self {
        Gen {
            u,
            games: Vec::new(),
            helpers: Vec::new(),
            fresh: 0,
        }
    }

    fn pick(&mut self, n: usize) -> Result<usize> {
        if n <= 1 {
            return Ok(0);
        }
        self.u.choose_index(n)
    }

    fn chance(&mut self, in_eight: u8) -> Result<bool> {
        Ok(self.u.int_in_range(0..=7u8)? < in_eight)
    }

    fn var_name(&mut self) -> String {
        self.fresh += 1;
        format!("v{}", self.fresh)
    }

    /// A whole file: one to four games (each may use those before it and
    /// itself), helpers, aliases, then claims about them.
    pub fn program(&mut self) -> Result<String> {
        let mut out = String::new();
        // A plain heap game first, so every later game has something to
        // move to.
        out.push_str("game H(n: nat) { move take(k in 1..=n) => H(n - k); }\n");
        self.games.push(Callable {
            name: "H".into(),
            params: vec![Ty::Nat],
        });
        let items = self.u.int_in_range(1..=6u8)?;
        for i in 0..items {
            match self.pick(3)? {
                0 => out.push_str(&self.helper(i)?),
                1 => out.push_str(&self.alias(i)?),
                _ => out.push_str(&self.rules_game(i)?),
            }
        }
        let claims = self.u.int_in_range(1..=4u8)?;
        for _ in 0..claims {
            out.push_str(&self.claim()?);
        }
        Ok(out)
    }

    fn params(&mut self, allow_games: bool) -> Result<Vec<(String, Ty)>> {
        let count = self.u.int_in_range(1..=3u8)?;
        let mut params = Vec::new();
        for i in 0..count {
            let choices: &[Ty] = if allow_games {
                &[Ty::Nat, Ty::Nat, Ty::Int, Ty::Str, Ty::Nats, Ty::Game]
            } else {
                &[Ty::Nat, Ty::Nat, Ty::Int, Ty::Str, Ty::Nats, Ty::Bool]
            };
            let ty = choices[self.pick(choices.len())?];
            params.push((format!("p{i}"), ty));
        }
        Ok(params)
    }

    fn param_list(params: &[(String, Ty)]) -> String {
        params
            .iter()
            .map(|(n, t)| format!("{n}: {}", t.written()))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// `fn fI(...) = ...;`, which may call itself (getting smaller, or not).
    fn helper(&mut self, i: u8) -> Result<String> {
        let name = format!("f{i}");
        let params = self.params(false)?;
        let result = [Ty::Int, Ty::Bool, Ty::Nats, Ty::Str][self.pick(4)?];
        let me = Callable {
            name: name.clone(),
            params: params.iter().map(|p| p.1).collect(),
        };
        let scope = Scope {
            vars: params.clone(),
            queries: false,
        };
        // A base case and a recursive call, or just an expression.
        let body = if self.chance(3)? && params[0].1 == Ty::Nat && result == Ty::Int {
            let p = &params[0].0;
            let step = self.u.int_in_range(0..=2u8)?;
            let mut args = vec![format!("{p} - {step}")];
            for (_, ty) in &params[1..] {
                args.push(self.expr(*ty, &scope, 2)?);
            }
            let combine = ["+", "*", "-"][self.pick(3)?];
            format!(
                "if {p} < 2 then {p} else {name}({}) {combine} {name}({})",
                args.join(", "),
                args.join(", ")
            )
        } else {
            self.helpers.push(me.clone());
            let body = self.expr(result, &scope, 0)?;
            self.helpers.pop();
            body
        };
        self.helpers.push(me);
        Ok(format!(
            "fn {name}({}) = {body};\n",
            Self::param_list(&params)
        ))
    }

    /// `game AI(...) = ...;`: a position, a sum, a list of positions, or a
    /// chain that ends in another game.
    fn alias(&mut self, i: u8) -> Result<String> {
        let name = format!("A{i}");
        let params = self.params(true)?;
        let me = Callable {
            name: name.clone(),
            params: params.iter().map(|p| p.1).collect(),
        };
        let scope = Scope {
            vars: params.clone(),
            queries: false,
        };
        let body = if self.chance(3)? && params[0].1 == Ty::Nat {
            // `if p0 == 0 then G(..) else AI(p0 - 1, ...)`: a chain.
            let p = &params[0].0;
            let base = self.expr(Ty::Game, &scope, 1)?;
            self.games.push(me.clone());
            let mut args = vec![format!("{p} - 1")];
            for (_, ty) in &params[1..] {
                args.push(self.expr(*ty, &scope, 2)?);
            }
            self.games.pop();
            let step = format!("{name}({})", args.join(", "));
            let step = if self.chance(2)? {
                format!("{step} + {base}")
            } else {
                step
            };
            format!("if {p} == 0 then {base} else {step}")
        } else if self.chance(3)? {
            let v = self.var_name();
            let source = self.expr(Ty::Nats, &scope, 1)?;
            let mut inner = scope.clone();
            inner.vars.push((v.clone(), Ty::Nat));
            let element = self.expr(Ty::Game, &inner, 1)?;
            format!("[{element} for {v} in {source}]")
        } else {
            self.expr(Ty::Game, &scope, 0)?
        };
        self.games.push(me);
        Ok(format!(
            "game {name}({}) = {body};\n",
            Self::param_list(&params)
        ))
    }

    /// `game GI(...) { move ...; lose if ...; parts = ...; }`.
    fn rules_game(&mut self, i: u8) -> Result<String> {
        let name = format!("G{i}");
        let params = self.params(true)?;
        let me = Callable {
            name: name.clone(),
            params: params.iter().map(|p| p.1).collect(),
        };
        self.games.push(me);
        let scope = Scope {
            vars: params.clone(),
            queries: false,
        };
        let mut body = String::new();
        let moves = self.u.int_in_range(1..=3u8)?;
        for m in 0..moves {
            body.push_str(&self.move_rule(m, &scope)?);
        }
        // `lose if` and `parts =` may not go together.
        match self.pick(4)? {
            0 => body.push_str(&format!(
                "  lose if {};\n",
                self.expr(Ty::Bool, &scope, 1)?
            )),
            1 => {
                let v = self.var_name();
                let source = self.expr(Ty::Nats, &scope, 1)?;
                let mut inner = scope.clone();
                inner.vars.push((v.clone(), Ty::Nat));
                let element = self.expr(Ty::Game, &inner, 1)?;
                body.push_str(&format!("  parts = [{element} for {v} in {source}];\n"));
            }
            _ => {}
        }
        Ok(format!(
            "game {name}({}) {{\n{body}}}\n",
            Self::param_list(&params)
        ))
    }

    fn move_rule(&mut self, m: u8, scope: &Scope) -> Result<String> {
        let mut inner = scope.clone();
        let mut generators = Vec::new();
        for _ in 0..self.u.int_in_range(0..=2u8)? {
            let v = self.var_name();
            let source = self.expr(Ty::Nats, &inner, 1)?;
            generators.push(format!("{v} in {source}"));
            inner.vars.push((v, Ty::Nat));
        }
        let guard = if self.chance(5)? {
            format!(" if {}", self.expr(Ty::Bool, &inner, 1)?)
        } else {
            String::new()
        };
        let result = self.expr(Ty::Game, &inner, 0)?;
        Ok(format!(
            "  move m{m}({}){guard} => {result};\n",
            generators.join(", ")
        ))
    }

    fn claim(&mut self) -> Result<String> {
        let mut scope = Scope {
            vars: Vec::new(),
            queries: true,
        };
        let mut head = String::new();
        if self.chance(4)? {
            let v = self.var_name();
            let hi = self.u.int_in_range(0..=12u8)?;
            head = format!("for {v} in 0..{hi}: ");
            scope.vars.push((v, Ty::Nat));
        }
        Ok(format!("claim {head}{};\n", self.expr(Ty::Bool, &scope, 0)?))
    }

    /// A variable of a type that fits `ty`, if the scope has one.
    fn var_of(&mut self, ty: Ty, scope: &Scope) -> Result<Option<String>> {
        let fitting: Vec<&String> = scope
            .vars
            .iter()
            .filter(|(_, t)| t.fits(ty))
            .map(|(n, _)| n)
            .collect();
        if fitting.is_empty() {
            return Ok(None);
        }
        Ok(Some(fitting[self.pick(fitting.len())?].clone()))
    }

    /// A call to a game or helper giving `ty`, with arguments of the right
    /// types.
    fn call(&mut self, callable: &Callable, scope: &Scope, depth: usize) -> Result<String> {
        let mut args = Vec::new();
        for ty in &callable.params {
            args.push(self.expr(*ty, scope, depth + 1)?);
        }
        Ok(format!("{}({})", callable.name, args.join(", ")))
    }

    fn small_number(&mut self) -> Result<String> {
        Ok(match self.pick(12)? {
            0 => "9223372036854775807".into(),
            1 => "4611686018427387904".into(),
            2 => "100000".into(),
            n => (n - 3).to_string(),
        })
    }

    /// An expression of type `ty`.
    fn expr(&mut self, ty: Ty, scope: &Scope, depth: usize) -> Result<String> {
        let leaf = depth >= MAX_DEPTH || self.u.is_empty() || self.chance(2)?;
        if leaf {
            if let Some(v) = self.var_of(ty, scope)? {
                if self.chance(6)? {
                    return Ok(v);
                }
            }
            return self.leaf(ty);
        }
        let d = depth + 1;
        // An `if` or a helper call fits every type.
        if self.chance(1)? {
            return Ok(format!(
                "(if {} then {} else {})",
                self.expr(Ty::Bool, scope, d)?,
                self.expr(ty, scope, d)?,
                self.expr(ty, scope, d)?
            ));
        }
        Ok(match ty {
            Ty::Nat | Ty::Int => self.number(scope, d)?,
            Ty::Bool => self.boolean(scope, d)?,
            Ty::Str => self.string(scope, d)?,
            Ty::Nats => self.numbers(scope, d)?,
            Ty::Game => self.game(scope, d)?,
        })
    }

    fn leaf(&mut self, ty: Ty) -> Result<String> {
        Ok(match ty {
            Ty::Nat | Ty::Int => self.small_number()?,
            Ty::Bool => ["true", "false"][self.pick(2)?].into(),
            Ty::Str => ["\"\"", "\"X.X\"", "\"....\"", "\"XX.\""][self.pick(4)?].into(),
            Ty::Nats => ["[]", "[1, 2, 3]", "(0..3)", "[0]"][self.pick(4)?].into(),
            Ty::Game => format!("H({})", self.u.int_in_range(0..=5u8)?),
        })
    }

    /// One of the helpers defined so far, or none. Their result types are
    /// not recorded: a call is wrapped where its type matters.
    fn some_helper(&mut self) -> Result<Option<Callable>> {
        if self.helpers.is_empty() || !self.chance(2)? {
            return Ok(None);
        }
        let i = self.pick(self.helpers.len())?;
        Ok(Some(self.helpers[i].clone()))
    }

    fn number(&mut self, scope: &Scope, d: usize) -> Result<String> {
        Ok(match self.pick(14)? {
            0..=5 => {
                let op = ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"][self.pick(10)?];
                format!(
                    "({} {op} {})",
                    self.expr(Ty::Int, scope, d)?,
                    self.expr(Ty::Int, scope, d)?
                )
            }
            6 => format!("-{}", self.expr(Ty::Int, scope, d)?),
            7 => {
                let f = ["len", "sum", "mex", "min", "max", "xor"][self.pick(6)?];
                format!("{f}({})", self.expr(Ty::Nats, scope, d)?)
            }
            8 => format!("len({})", self.expr(Ty::Str, scope, d)?),
            9 => format!(
                "{}[{}]",
                self.expr(Ty::Nats, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
            10 => {
                let f = ["abs", "popcount"][self.pick(2)?];
                format!("{f}({})", self.expr(Ty::Int, scope, d)?)
            }
            11 => format!(
                "pow({}, {})",
                self.expr(Ty::Int, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
            12 if scope.queries => {
                let q = ["value", "height"][self.pick(2)?];
                format!("{q}({})", self.expr(Ty::Game, scope, d)?)
            }
            _ => match self.some_helper()? {
                // `len` of whatever the helper gives is a number.
                Some(h) => format!("len([{}])", self.call(&h, scope, d)?),
                None => self.small_number()?,
            },
        })
    }

    fn boolean(&mut self, scope: &Scope, d: usize) -> Result<String> {
        Ok(match self.pick(9)? {
            0..=2 => {
                let op = ["<", "<=", "==", "!=", ">", ">="][self.pick(6)?];
                format!(
                    "{} {op} {}",
                    self.expr(Ty::Int, scope, d)?,
                    self.expr(Ty::Int, scope, d)?
                )
            }
            3 => {
                let op = ["and", "or"][self.pick(2)?];
                format!(
                    "({} {op} {})",
                    self.expr(Ty::Bool, scope, d)?,
                    self.expr(Ty::Bool, scope, d)?
                )
            }
            4 => format!("not ({})", self.expr(Ty::Bool, scope, d)?),
            5 => format!(
                "{} in {}",
                self.expr(Ty::Int, scope, d)?,
                self.expr(Ty::Nats, scope, d)?
            ),
            6 => format!(
                "has({}, {})",
                self.expr(Ty::Str, scope, d)?,
                self.expr(Ty::Str, scope, d)?
            ),
            7 if scope.queries => {
                let g = self.expr(Ty::Game, scope, d)?;
                match self.pick(4)? {
                    0 => format!("outcome({g}) == \"P\""),
                    1 => format!("misere({g}) == \"N\""),
                    2 => format!("len(moves({g})) >= 0"),
                    _ => format!("{} in winning({g})", self.expr(Ty::Game, scope, d)?),
                }
            }
            _ => {
                let (v, inner) = self.bound(scope)?;
                let source = self.expr(Ty::Nats, scope, d)?;
                let test = self.expr(Ty::Bool, &inner, d)?;
                let all = ["all", "any"][self.pick(2)?];
                format!("{all}([{test} for {v} in {source}])")
            }
        })
    }

    /// A new variable of type `nat`, and the scope with it.
    fn bound(&mut self, scope: &Scope) -> Result<(String, Scope)> {
        let v = self.var_name();
        let mut inner = scope.clone();
        inner.vars.push((v.clone(), Ty::Nat));
        Ok((v, inner))
    }

    fn string(&mut self, scope: &Scope, d: usize) -> Result<String> {
        Ok(match self.pick(6)? {
            0 => format!(
                "repeat({}, {})",
                self.expr(Ty::Str, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
            1 => format!(
                "set_at({}, {}, \"X\")",
                self.expr(Ty::Str, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
            2 => format!(
                "slice({}, {}, {})",
                self.expr(Ty::Str, scope, d)?,
                self.expr(Ty::Int, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
            3 => format!("reverse({})", self.expr(Ty::Str, scope, d)?),
            4 => format!(
                "{} + {}",
                self.expr(Ty::Str, scope, d)?,
                self.expr(Ty::Str, scope, d)?
            ),
            _ => {
                let (v, _) = self.bound(scope)?;
                format!(
                    "join([\"X\" for {v} in {}])",
                    self.expr(Ty::Nats, scope, d)?
                )
            }
        })
    }

    fn numbers(&mut self, scope: &Scope, d: usize) -> Result<String> {
        Ok(match self.pick(9)? {
            0 | 1 => {
                let (v, inner) = self.bound(scope)?;
                let source = self.expr(Ty::Nats, scope, d)?;
                let element = self.expr(Ty::Nat, &inner, d)?;
                let guard = if self.chance(3)? {
                    format!(" if {}", self.expr(Ty::Bool, &inner, d)?)
                } else {
                    String::new()
                };
                format!("[{element} for {v} in {source}{guard}]")
            }
            2 => {
                let op = ["..", "..="][self.pick(2)?];
                format!(
                    "({}{op}{})",
                    self.expr(Ty::Int, scope, d)?,
                    self.expr(Ty::Int, scope, d)?
                )
            }
            3 => {
                let mut items = Vec::new();
                for _ in 0..self.u.int_in_range(0..=4u8)? {
                    items.push(self.expr(Ty::Nat, scope, d)?);
                }
                format!("[{}]", items.join(", "))
            }
            4 => {
                let f = ["sort", "reverse"][self.pick(2)?];
                format!("{f}({})", self.expr(Ty::Nats, scope, d)?)
            }
            5 => format!(
                "set_at({}, {}, {})",
                self.expr(Ty::Nats, scope, d)?,
                self.expr(Ty::Int, scope, d)?,
                self.expr(Ty::Nat, scope, d)?
            ),
            6 => format!(
                "remove_at({}, {})",
                self.expr(Ty::Nats, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
            7 => format!(
                "runs({}, \"X\")",
                self.expr(Ty::Str, scope, d)?
            ),
            _ => format!(
                "slice({}, {}, {})",
                self.expr(Ty::Nats, scope, d)?,
                self.expr(Ty::Int, scope, d)?,
                self.expr(Ty::Int, scope, d)?
            ),
        })
    }

    fn game(&mut self, scope: &Scope, d: usize) -> Result<String> {
        Ok(match self.pick(4)? {
            0 => format!(
                "{} + {}",
                self.expr(Ty::Game, scope, d)?,
                self.expr(Ty::Game, scope, d)?
            ),
            _ => {
                let i = self.pick(self.games.len())?;
                let g = self.games[i].clone();
                self.call(&g, scope, d)?
            }
        })
    }
}
