//! A nim-sequence g(0), g(1), ... stored in two bytes a value while every
//! value fits, widened to four the first time one does not: long tables
//! stay within four bytes a value, the backwards copy the kernels read
//! included.

/// g(0), g(1), ..., as compact as their values allow.
#[derive(Clone, Debug)]
pub enum Values {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Default for Values {
    fn default() -> Values {
        Values::Narrow(Vec::new())
    }
}

impl PartialEq for Values {
    fn eq(&self, other: &Values) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Values {}

impl From<Vec<u32>> for Values {
    fn from(values: Vec<u32>) -> Values {
        if values.iter().all(|&v| v <= u16::MAX as u32) {
            Values::Narrow(values.into_iter().map(|v| v as u16).collect())
        } else {
            Values::Wide(values)
        }
    }
}

impl From<&[u32]> for Values {
    fn from(values: &[u32]) -> Values {
        Values::from(values.to_vec())
    }
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::Narrow(v) => v.len(),
            Values::Wide(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// g(n); n must be below `len()`.
    #[inline]
    pub fn at(&self, n: usize) -> u32 {
        match self {
            Values::Narrow(v) => v[n] as u32,
            Values::Wide(v) => v[n],
        }
    }

    /// g(n), or `None` past the end.
    pub fn get(&self, n: usize) -> Option<u32> {
        (n < self.len()).then(|| self.at(n))
    }

    pub fn push(&mut self, value: u32) {
        match self {
            Values::Narrow(v) if value <= u16::MAX as u32 => v.push(value as u16),
            Values::Narrow(v) => {
                let mut wide = Vec::with_capacity(v.capacity().max(v.len() + 1));
                wide.extend(v.iter().map(|&x| x as u32));
                wide.push(value);
                *self = Values::Wide(wide);
            }
            Values::Wide(v) => v.push(value),
        }
    }

    pub fn reserve(&mut self, more: usize) {
        match self {
            Values::Narrow(v) => v.reserve(more),
            Values::Wide(v) => v.reserve(more),
        }
    }

    pub fn truncate(&mut self, len: usize) {
        match self {
            Values::Narrow(v) => v.truncate(len),
            Values::Wide(v) => v.truncate(len),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let (narrow, wide) = match self {
            Values::Narrow(v) => (v.as_slice(), &[][..]),
            Values::Wide(v) => (&[][..], v.as_slice()),
        };
        narrow.iter().map(|&v| v as u32).chain(wide.iter().copied())
    }

    pub fn largest(&self) -> u32 {
        self.iter().max().unwrap_or(0)
    }

    pub fn to_vec(&self) -> Vec<u32> {
        self.iter().collect()
    }

    /// The same values, narrow if they all fit.
    pub fn compact(self) -> Values {
        match self {
            Values::Wide(v) => Values::from(v),
            narrow => narrow,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_widen_when_one_does_not_fit_and_keep_every_value() {
        let mut values = Values::default();
        let all = [0, 7, 65535, 65536, 3, u32::MAX];
        for &v in &all {
            values.push(v);
        }
        assert!(matches!(values, Values::Wide(_)));
        assert_eq!(values.to_vec(), all);
        assert_eq!(values.get(6), None);
        assert!(matches!(Values::from(all[..3].to_vec()), Values::Narrow(_)));
        assert_eq!(Values::from(all.to_vec()), values);
        assert_eq!(values.largest(), u32::MAX);
    }
}
