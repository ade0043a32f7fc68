use super::*;
use crate::eval::octal::OctalCode;
use crate::solve::kernel::octal_sequence;
use crate::solve::values::Values;
use std::ops::ControlFlow;

fn dense(code: &str, upto: usize) -> Vec<u32> {
    let code = OctalCode::parse(code).expect("a valid code");
    octal_sequence(&code, Values::default(), upto, |_| {
        std::ops::ControlFlow::Continue(())
    })
    .to_vec()
}

/// The first mask is chosen after this many heaps instead of thousands,
/// so that short sequences (quick in a debug build) take the rare/common
/// path and choose their mask several times.
const WARM: usize = 48;

fn sparse(rules: &HeapRules, known: Vec<u32>, upto: usize) -> Vec<u32> {
    sequence_warmed(rules, Values::from(known), upto, WARM, |_| {
        ControlFlow::Continue(())
    })
    .to_vec()
}

fn octal(code: &str) -> HeapRules {
    HeapRules::octal(&OctalCode::parse(code).expect("a valid code"))
}

/// The textbook method: every option listed, the smallest value missing.
fn textbook(rules: &HeapRules, upto: usize) -> Vec<u32> {
    textbook_from(rules, vec![], upto)
}

/// The same, going on from any values given for the first heaps.
fn textbook_from(rules: &HeapRules, mut g: Vec<u32>, upto: usize) -> Vec<u32> {
    for n in g.len()..=upto {
        let mut options = Vec::new();
        rules.single_options(&g, n, |v| options.push(v));
        for &(k, strict) in &rules.split {
            for a in 1..n.saturating_sub(k) {
                let b = n - k - a;
                if a < b || (a == b && !strict) {
                    options.push(g[a] ^ g[b]);
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).expect("a mex"));
    }
    g
}

#[test]
fn grundys_game_starts_as_published() {
    // OEIS A002188.
    let want = [
        0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2,
    ];
    assert_eq!(sparse(&HeapRules::grundys_game(), vec![], 29), want);
}

#[test]
fn grundys_game_agrees_with_the_textbook_method() {
    let rules = HeapRules::grundys_game();
    assert_eq!(sparse(&rules, vec![], 1500), textbook(&rules, 1500));
    // And through the public entry, past the default warm-up.
    let long = sequence(&rules, Values::default(), 5000, |_| {
        ControlFlow::Continue(())
    })
    .to_vec();
    assert_eq!(long, sparse(&rules, vec![], 5000));
}

#[test]
fn named_codes_agree_with_the_dense_kernel() {
    for code in [
        "0.77", "0.07", "0.137", "0.007", "4.7", "0.16", "0.6", "4.0", "0.51", "0.3122", "0.06",
        "0.4", "0.56", "0.72",
    ] {
        let want = dense(code, 2500);
        assert_eq!(sparse(&octal(code), vec![], 2500), want, "{code}");
    }
}

#[test]
fn textbook_and_kernel_agree_on_the_rules_read_from_a_code() {
    for code in ["0.77", "4.07", "0.1234"] {
        assert_eq!(textbook(&octal(code), 300), dense(code, 300), "{code}");
    }
}

#[test]
fn random_codes_agree_with_the_dense_kernel() {
    // A fixed generator: the same codes every run, many shapes.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    for _ in 0..60 {
        let len = 1 + next(5) as usize;
        let digits: String = (0..len).map(|_| char::from(b'0' + next(8) as u8)).collect();
        let first = if next(4) == 0 { '4' } else { '0' };
        let code = format!("{first}.{digits}");
        let upto = 300 + next(900) as usize;
        assert_eq!(
            sparse(&octal(&code), vec![], upto),
            dense(&code, upto),
            "{code} to {upto}"
        );
    }
}

#[test]
fn a_mask_that_stops_fitting_still_gives_the_right_values() {
    // Values that grow without bound (g(n) = n for a while, then more
    // spread out): the mask chosen early fits badly later and is chosen
    // again, and the values stay right throughout.
    let code = format!("0.{}", "7".repeat(40));
    assert_eq!(sparse(&octal(&code), vec![], 1500), dense(&code, 1500));
    // A mask forced on a sequence it does not fit.
    let rules = octal("0.77");
    let want = dense("0.77", 1500);
    let mut run = Run::new(&rules, Values::from(&want[..1000]), 1500);
    run.mask = Some(Mask {
        bits: 1,
        rare: 0,
        total: 0,
    });
    for (n, &v) in want.iter().enumerate().skip(1).take(999) {
        if v % 2 == 0 {
            run.rare_heaps.push(n as u32);
            run.rare_values.push(v);
        }
    }
    for (n, &v) in want.iter().enumerate().skip(1000) {
        let got = run.sparse_mex(
            n,
            Mask {
                bits: 1,
                rare: 0,
                total: 0,
            },
        );
        assert_eq!(got, v, "n = {n}");
        run.push(n, got);
    }
}

#[test]
fn values_past_u16_take_the_wide_path() {
    // Made-up values for the first heaps, some past 65535 (too far for a
    // real game in a quick test): the recurrence goes on from them all the
    // same, and the wide copy of the values must give what the textbook
    // does, from the start or from a value that outgrows u16 on the way.
    let mut state: u32 = 12345;
    let mut first: Vec<u32> = (0..200)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            if state.is_multiple_of(7) {
                70_000 + state % 50
            } else {
                state % 5
            }
        })
        .collect();
    for rules in [octal("0.16"), octal("4.07"), HeapRules::grundys_game()] {
        let want = textbook_from(&rules, first.clone(), 900);
        assert_eq!(sparse(&rules, first.clone(), 900), want, "{rules:?}");
    }
    // Narrow at first, wide from heap 100 on.
    first.truncate(100);
    first.iter_mut().for_each(|v| *v %= 5);
    first.push(80_000);
    let rules = octal("0.6");
    let want = textbook_from(&rules, first.clone(), 700);
    assert_eq!(sparse(&rules, first.clone(), 700), want);
    let mut run = Run::new(&rules, Values::from(&first[..100]), 700);
    assert!(matches!(run.backwards, Backwards::Narrow(_)));
    run.push(100, 80_000);
    assert!(matches!(run.backwards, Backwards::Wide(_)));
    for (n, &v) in want.iter().enumerate().skip(101) {
        let got = match run.mask {
            Some(mask) => run.sparse_mex(n, mask),
            None => run.plain_mex(n),
        };
        assert_eq!(got, v, "n = {n}");
        run.push(n, got);
        if n == 300 {
            run.rechoose();
        }
    }
    assert!(run.mask.is_some());
}

#[test]
fn resuming_gives_the_same_values() {
    for rules in [HeapRules::grundys_game(), octal("0.16"), octal("0.007")] {
        let whole = sparse(&rules, vec![], 2000);
        for cut in [0, 1, 7, 47, 48, 500, 1024, 2000] {
            assert_eq!(
                sparse(&rules, whole[..cut].to_vec(), 2000),
                whole,
                "cut at {cut}"
            );
        }
        assert_eq!(sparse(&rules, whole.clone(), 100), whole[..=100]);
    }
}

#[test]
fn a_stopped_run_keeps_its_values_and_resumes() {
    let rules = HeapRules::grundys_game();
    let upto = 5 * STRETCH;
    let whole = sparse(&rules, vec![], upto);
    // The hook is shown every stretch, and stops the run at the third.
    let mut shown = Vec::new();
    let stopped = sequence_warmed(&rules, Values::default(), upto, WARM, |values| {
        shown.push(values.len());
        if shown.len() == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!(shown, [STRETCH, 2 * STRETCH, 3 * STRETCH]);
    assert_eq!(stopped.to_vec(), whole[..3 * STRETCH]);
    assert_eq!(sparse(&rules, stopped.to_vec(), upto), whole);
}

#[test]
fn the_method_is_chosen_where_it_pays() {
    // Measured: twice as fast on Grundy's game to 10^5, ten times on 0.16,
    // several times slower on 0.07 at any length. (Closer calls, such as
    // 0.6 to 10^5 or 0.007 to 10^6, are left out: timings on a busy machine
    // could tip them.)
    let upto = 100_000;
    let first = judge_after(upto);
    let grundy = sparse(&HeapRules::grundys_game(), vec![], first - 1);
    assert!(
        pays(&HeapRules::grundys_game(), &Values::from(&grundy[..]), upto),
        "{:?}",
        choose_mask(&Values::from(&grundy[..]))
    );
    let dense = |code, upto| Values::from(dense(code, upto));
    assert!(pays(&octal("0.16"), &dense("0.16", first - 1), upto));
    assert!(!pays(&octal("0.07"), &dense("0.07", first - 1), upto));
    assert!(!pays(&octal("0.07"), &dense("0.07", 20_000), 10_000_000));
}

/// CPU time of this process in user mode, where the system tells it
/// (Linux): on a busy machine it says more than the time on the clock.
fn user_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses; utime is
    // the 14th field, in ticks of (almost always) 1/100 s.
    let rest = &stat[stat.rfind(')')? + 2..];
    let ticks: f64 = rest.split(' ').nth(11)?.parse().ok()?;
    Some(ticks / 100.0)
}

/// Timings, not a check: `SPARSE_UPTO=1000000 cargo test --release --lib
/// sparse::tests::timings -- --ignored --nocapture`.
#[test]
#[ignore]
fn timings() {
    let upto: usize = std::env::var("SPARSE_UPTO")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let games =
        std::env::var("SPARSE_GAMES").unwrap_or_else(|_| "grundy,0.16,0.6,0.007,0.07".into());
    let dense_too = std::env::var("SPARSE_DENSE").is_ok();
    for game in games.split(',') {
        let rules = if game == "grundy" {
            HeapRules::grundys_game()
        } else {
            octal(game)
        };
        let start = std::time::Instant::now();
        let cpu = user_seconds();
        let values = sequence(&rules, Values::default(), upto, |_| {
            ControlFlow::Continue(())
        })
        .to_vec();
        let took = start.elapsed();
        if let (Some(before), Some(after)) = (cpu, user_seconds()) {
            println!("{game} to {upto}: sparse user {:.2} s", after - before);
        }
        // The baseline's and ogsolve's checksum: Fletcher-32 over u16 values.
        let (mut a, mut b) = (0u16, 0u16);
        for &v in &values {
            a = a.wrapping_add(v as u16);
            b = b.wrapping_add(a);
        }
        println!(
            "{game} to {upto}: checksum {:X}",
            (b as u32) << 16 | a as u32
        );
        let mask = choose_mask(&Values::from(&values[..]));
        if let Some(m) = mask {
            let windows: Vec<usize> = values
                .chunks(values.len().div_ceil(10))
                .map(|w| w.iter().filter(|&&v| m.is_rare(v)).count())
                .collect();
            println!("{game}: rare heaps per tenth under the final mask {windows:?}");
        }
        println!(
            "{game} to {upto}: sparse {took:.2?}, max {}, mask {mask:?}, pays after {}: {}",
            values.iter().max().unwrap_or(&0),
            judge_after(upto),
            pays(&rules, &Values::from(&values[..judge_after(upto)]), upto)
        );
        if dense_too && game != "grundy" {
            let start = std::time::Instant::now();
            let want = dense(game, upto);
            println!("{game} to {upto}: dense {:.2?}", start.elapsed());
            assert_eq!(values, want);
        }
    }
}
