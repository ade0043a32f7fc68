//! The lowered code of a program (see `lowered`), kept with the program it
//! was made from, and a move's result position made by it: the arguments'
//! bytes written straight into the interner, with no value built.

use super::conform::already_fits;
use super::engine::Unsupported;
use super::interp::{Env, Interp};
use super::ir::Program;
use super::lowered::{Arg, Lowered, Truth};
use super::lowered_run::{list_fits, num_fits, set_several, Runner};
use super::packing::{write_int, write_int_list};
use super::positions::PosId;
use super::value::Value;
use crate::types::Type;
use std::sync::Arc;

/// The lowered code and the buffers its runs reuse.
#[derive(Default)]
pub struct LoweredState {
    /// The program the code was lowered from: a session may swap the
    /// program at any time, and the code is made again for a new one.
    code: Option<(Arc<Program>, Arc<Lowered>)>,
    /// The numbers of a list argument being made.
    ints: Vec<i64>,
    /// A board argument being made.
    text: String,
}

impl Interp {
    /// The lowered code of the current program.
    pub(super) fn lowered_code(&mut self) -> Arc<Lowered> {
        if !self.lowering {
            return Arc::default();
        }
        if let Some((program, code)) = &self.lowered.code {
            if Arc::ptr_eq(program, &self.program) {
                return code.clone();
            }
        }
        let code = Arc::new(Lowered::new(&self.program));
        self.lowered.code = Some((self.program.clone(), code.clone()));
        code
    }

    /// The conditions and results of game `g` its lowered code leaves to the
    /// interpreter, and why.
    pub fn unlowered(&self, g: u32) -> Vec<Unsupported> {
        let fresh;
        let code = match &self.lowered.code {
            Some((program, code)) if Arc::ptr_eq(program, &self.program) => code,
            _ => {
                fresh = Lowered::new(&self.program);
                &fresh
            }
        };
        code.games
            .get(g as usize)
            .map_or_else(Vec::new, |c| c.unlowered.clone())
    }

    /// Runs a lowered truth, if there is one and it answers.
    pub(super) fn lowered_truth(
        &mut self,
        program: &Program,
        code: &Lowered,
        truth: Option<&Truth>,
        env: &mut Env,
    ) -> Option<bool> {
        Runner::new(code, program, &mut self.spare).truth(truth?, env)
    }

    /// The position `game(args...)` made by lowered code and interned, or
    /// `None` when the interpreter must make it (it then also reports any
    /// error, such as one too many positions).
    pub(super) fn lowered_position(
        &mut self,
        program: &Program,
        code: &Lowered,
        (game, args): &(u32, Vec<Arg>),
        env: &mut Env,
    ) -> Option<PosId> {
        let game = *game;
        let params = &program.games.get(game as usize)?.params;
        let mut runner = Runner::new(code, program, &mut self.spare);
        let LoweredState { ints, text, .. } = &mut self.lowered;
        let id = self.positions.intern_built(game, |packer, out| {
            for (a, param) in args.iter().zip(params) {
                match a {
                    Arg::Value(slot) => {
                        let v = &env[*slot as usize];
                        if !already_fits(&param.ty, v) {
                            return None;
                        }
                        packer.write(std::slice::from_ref(v), out);
                    }
                    Arg::Num(c) => {
                        let n = runner.num(c, env)?;
                        if !num_fits(&param.ty, n) {
                            return None;
                        }
                        write_int(n, out);
                    }
                    Arg::List(c) => {
                        ints.clear();
                        runner.list(c, env, ints)?;
                        if !list_fits(&param.ty, ints) {
                            return None;
                        }
                        write_int_list(ints, out);
                    }
                    Arg::SetSeveral(target, at, values) => {
                        let [target, at, values] = [target, at, values].map(|s| &env[*s as usize]);
                        ints.clear();
                        set_several(target, at, values, ints)?;
                        if !list_fits(&param.ty, ints) {
                            return None;
                        }
                        write_int_list(ints, out);
                    }
                    Arg::SetCell(slot, index, cell) => {
                        let i = usize::try_from(runner.num(index, env)?).ok()?;
                        let Value::Str(board) = &env[*slot as usize] else {
                            return None;
                        };
                        let fits = matches!(param.ty, Type::Str | Type::Unknown);
                        if !fits || !board.is_ascii() || i >= board.len() {
                            return None;
                        }
                        text.clear();
                        text.push_str(&board[..i]);
                        text.push(char::from(*cell));
                        text.push_str(&board[i + 1..]);
                        packer.string(text, out);
                    }
                }
            }
            Some(())
        })?;
        (self.states_held() <= self.max_positions).then_some(id)
    }
}
