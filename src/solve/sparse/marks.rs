//! Which values are options of the current heap.

/// Which values are options of the current heap: a stamp per value, so
/// that nothing is cleared between heaps.
#[derive(Default)]
pub(super) struct Marks {
    stamps: Vec<u32>,
    now: u32,
}

/// The marks of one heap, sized for its options.
pub(super) struct Started<'m> {
    stamps: &'m mut [u32],
    now: u32,
}

impl Marks {
    pub fn start(&mut self, largest: u32) -> Started<'_> {
        // Any xor of two values is below the next power of two past the
        // largest; twice that leaves room for a value no option reaches in
        // either class.
        let size = ((largest as usize + 1).next_power_of_two() * 2).max(64);
        if self.stamps.len() < size {
            self.stamps.resize(size, 0);
        }
        if self.now == u32::MAX {
            self.stamps.fill(0);
            self.now = 0;
        }
        self.now += 1;
        Started {
            stamps: &mut self.stamps[..size],
            now: self.now,
        }
    }
}

impl Started<'_> {
    /// Values below this can be marked.
    pub fn len(&self) -> usize {
        self.stamps.len()
    }

    #[inline(always)]
    pub fn set(&mut self, v: u32) {
        let last = self.stamps.len() - 1;
        self.stamps[v as usize & last] = self.now;
    }

    #[inline(always)]
    pub fn get(&self, v: u32) -> bool {
        let last = self.stamps.len() - 1;
        self.stamps[v as usize & last] == self.now
    }

    /// The smallest value of a class that is not marked. There is one:
    /// the upper half of the stamps is never marked, and holds values of
    /// both classes for any mask below it.
    pub fn first_unset(&self, in_class: impl Fn(u32) -> bool) -> u32 {
        (0..self.stamps.len() as u32)
            .find(|&v| in_class(v) && self.stamps[v as usize] != self.now)
            .unwrap_or(self.stamps.len() as u32)
    }
}
