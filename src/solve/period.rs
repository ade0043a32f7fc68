//! Periods in a nim-sequence g(0), g(1), ..., g(N), as far as it was computed.

/// `g(n + period) == g(n)` for every `n >= preperiod` seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub preperiod: usize,
    pub period: usize,
}

/// The shortest period (and, for it, the shortest preperiod) such that the
/// periodic part was seen repeating at least three times. Seeing it is
/// evidence, not proof: the caller says so.
pub fn find(values: &[u32]) -> Option<Period> {
    let len = values.len();
    for period in 1..=len / 3 {
        // Walk back from the end while values repeat with this period.
        let mut start = len - period;
        while start > 0 && values[start - 1] == values[start - 1 + period] {
            start -= 1;
        }
        // `start` is the first n with g(n) == g(n + period) for all later n.
        let periodic_len = len - start;
        if periodic_len >= 3 * period {
            return Some(Period {
                preperiod: start,
                period,
            });
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtraction_235_has_period_seven_from_the_start() {
        let pattern = [0, 0, 1, 1, 2, 2, 3];
        let g: Vec<u32> = (0..70).map(|n| pattern[n % 7]).collect();
        assert_eq!(
            find(&g),
            Some(Period {
                preperiod: 0,
                period: 7
            })
        );
    }

    #[test]
    fn a_preperiod_is_found() {
        let mut g = vec![5, 4];
        g.extend((0..30).map(|n| (n % 3) as u32));
        assert_eq!(
            find(&g),
            Some(Period {
                preperiod: 2,
                period: 3
            })
        );
    }

    #[test]
    fn nim_heaps_are_not_periodic() {
        let g: Vec<u32> = (0..100).collect();
        assert_eq!(find(&g), None);
    }
}
