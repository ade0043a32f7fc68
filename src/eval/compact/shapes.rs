//! A game's rules compiled once for each shape its keys may have (each
//! length of a list whose length changes, see `Layout::shapes`), each
//! with the machine that runs it: a key is read by the code of its shape.

use super::code::GameCode;
use super::layout::{Fields, Group, Layout};
use super::run::Machine;

pub struct Shaped {
    codes: Vec<GameCode>,
    machines: Vec<Machine>,
    /// The field of a key that holds its shape, if keys have several.
    length: Option<Fields>,
}

impl Shaped {
    pub fn new(codes: Vec<GameCode>, layout: &Layout) -> Shaped {
        let machines = codes.iter().map(|c| Machine::new(c, layout)).collect();
        let length = layout.groups.iter().find_map(|g| match g {
            Group::Sized { length, .. } => Some(*length),
            _ => None,
        });
        Shaped {
            codes,
            machines,
            length,
        }
    }

    /// The code of shape `shape` and its machine.
    #[inline]
    pub fn of(&mut self, shape: usize) -> Option<(&GameCode, &mut Machine)> {
        Some((self.codes.get(shape)?, self.machines.get_mut(shape)?))
    }

    /// The one shape's code and machine.
    #[cfg(test)]
    pub fn only(&self) -> (&GameCode, &Machine) {
        assert_eq!(self.codes.len(), 1, "keys of one shape");
        (&self.codes[0], &self.machines[0])
    }

    /// The code for keys of shape `shape`.
    pub fn code(&self, shape: usize) -> Option<&GameCode> {
        self.codes.get(shape)
    }

    /// Appends the keys of the options of `key` to `out`.
    #[inline]
    pub fn options(&mut self, layout: &Layout, key: u64, out: &mut Vec<u64>) -> Option<()> {
        let shape = self.length.map_or(0, |f| f.read(key, 0) as usize);
        let (code, machine) = self.of(shape)?;
        machine.options(layout, code, key, out)
    }
}
