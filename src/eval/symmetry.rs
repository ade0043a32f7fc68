//! `symmetry =`: a position's images, positions of the same game that are
//! the same position seen another way (a row reversed, a board turned).
//! The value search keeps one position of each orbit, the least by the
//! order of arguments (stable from run to run, unlike interning order),
//! and answers every other position of the orbit from it. A move's result
//! is turned into that position before it is interned, so the others are
//! never stored at all.

use super::interp::{Env, Interp};
use super::ir::{Ir, IrKind};
use super::positions::{GameId, PosId};
use super::value::Value;
use crate::error::{Error, ErrorKind};

type Result<T> = std::result::Result<T, Error>;

/// The most positions an orbit may have: a square board has 8, a row 2;
/// an orbit past this is a declaration that never comes back round.
pub const MAX_ORBIT: usize = 1024;

/// What the value search knows of orbits.
#[derive(Default)]
pub struct Orbits {
    /// Bit `p`: position `p` is known to be the least of its orbit, so
    /// finding its orbit again can be skipped. (A bit left over from other
    /// rules would only make a position stand for itself, which is never
    /// wrong.)
    least: Vec<u64>,
    /// Whether move results are being made for the value search, which
    /// stores one position of each orbit.
    pub searching: bool,
}

impl Orbits {
    fn is_least(&self, pos: PosId) -> bool {
        self.least
            .get(pos as usize / 64)
            .is_some_and(|w| w >> (pos % 64) & 1 == 1)
    }

    fn mark_least(&mut self, pos: PosId) {
        let word = pos as usize / 64;
        if word >= self.least.len() {
            self.least.resize(word + 1, 0);
        }
        self.least[word] |= 1 << (pos % 64);
    }
}

impl Interp {
    /// Whether game `g` declares images of its positions (a game that
    /// stands for the value of an expression has none of its own).
    pub fn has_symmetry(&self, g: GameId) -> bool {
        let declared = self
            .program
            .games
            .get(g as usize)
            .is_some_and(|game| game.symmetry.as_ref().is_some_and(|s| !s.images.is_empty()));
        declared && !self.given_by_expression(g)
    }

    /// The position of the orbit of `pos` that stands for all of it: the
    /// one with the least arguments. `pos` itself when its game declares no
    /// symmetry.
    pub fn canonical(&mut self, pos: PosId) -> Result<PosId> {
        let g = self.positions.game(pos);
        if !self.has_symmetry(g) || self.orbits.is_least(pos) {
            return Ok(pos);
        }
        let mut args = Vec::new();
        self.positions.args_into(pos, &mut args);
        let least = self.least_of_orbit(g, args).map_err(|e| {
            e.with_context(format!("finding the images of {}", self.describe_pos(pos)))
        })?;
        let id = match least {
            None => pos,
            Some(args) => self.positions.intern_slice(g, &args),
        };
        self.orbits.mark_least(id);
        Ok(id)
    }

    /// A move's result made as the least position of its orbit, when the
    /// value search asks and the result is one position of a game with a
    /// symmetry; `None` to make it the ordinary way.
    pub(super) fn least_result(&mut self, result: &Ir, env: &mut Env) -> Result<Option<PosId>> {
        if !self.orbits.searching {
            return Ok(None);
        }
        let IrKind::MakePos(g, made) = &result.kind else {
            return Ok(None);
        };
        if !self.has_symmetry(*g) {
            return Ok(None);
        }
        let mut args = Vec::with_capacity(made.len());
        for a in made {
            args.push(self.eval(a, env)?);
        }
        self.conform_args(*g, &mut args, result.span)?;
        let args = match self.least_of_orbit(*g, args.clone())? {
            Some(least) => least,
            None => args,
        };
        let Value::Pos(id) = self.intern_position(*g, args, result.span)? else {
            return Ok(None);
        };
        self.orbits.mark_least(id[0]);
        Ok(Some(id[0]))
    }

    /// The least arguments of the orbit of a position with arguments
    /// `args`, or `None` when they are `args` themselves.
    fn least_of_orbit(&mut self, g: GameId, args: Vec<Value>) -> Result<Option<Vec<Value>>> {
        let orbit = self.orbit(g, args)?;
        let least =
            (1..orbit.len()).fold(0, |best, i| if orbit[i] < orbit[best] { i } else { best });
        Ok((least != 0).then(|| orbit[least].clone()))
    }

    /// Every position the images reach from one with arguments `args`,
    /// applied again and again: `args` first, then in the order found.
    pub fn orbit(&mut self, g: GameId, args: Vec<Value>) -> Result<Vec<Vec<Value>>> {
        let mut orbit = vec![args];
        let mut next = 0;
        while next < orbit.len() {
            let found = self.images(g, &orbit[next])?;
            for image in found {
                if orbit.contains(&image) {
                    continue;
                }
                if orbit.len() >= MAX_ORBIT {
                    let span = self.symmetry_span(g);
                    let shown = self.positions.intern_slice(g, &orbit[0]);
                    return Err(Error::new(
                        ErrorKind::SymmetryOrbit {
                            game: self.program.games[g as usize].name.clone(),
                            position: self.describe_pos(shown),
                            limit: MAX_ORBIT,
                        },
                        span,
                    ));
                }
                orbit.push(image);
            }
            next += 1;
        }
        Ok(orbit)
    }

    /// The arguments of each image a position with arguments `args`
    /// declares, in the order written, checked as a move's result is.
    pub fn images(&mut self, g: GameId, args: &[Value]) -> Result<Vec<Vec<Value>>> {
        let program = self.program.clone();
        let game = &program.games[g as usize];
        let Some(symmetry) = &game.symmetry else {
            return Ok(Vec::new());
        };
        let mut env: Env = args.to_vec();
        env.resize(game.frame_size.max(args.len()), Value::Int(0));
        let mut found = Vec::with_capacity(symmetry.images.len());
        for image in &symmetry.images {
            let IrKind::MakePos(_, made) = &image.kind else {
                continue;
            };
            let mut values = Vec::with_capacity(made.len());
            for a in made {
                values.push(self.eval(a, &mut env)?);
            }
            self.conform_args(g, &mut values, image.span)?;
            found.push(values);
        }
        Ok(found)
    }

    /// Where game `g`'s `symmetry =` rule is written.
    pub fn symmetry_span(&self, g: GameId) -> crate::source::Span {
        let game = &self.program.games[g as usize];
        game.symmetry.as_ref().map_or(game.span, |s| s.span)
    }
}
