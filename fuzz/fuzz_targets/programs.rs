#![no_main]
//! `programs`: well-typed random programs (see `program_gen`), loaded and
//! run as `grundy check` runs them, under small limits: 2000 positions,
//! 2 seconds and 256 MiB a program. Every program must load or be refused
//! with errors, and every claim must hold or fail with an error; a panic,
//! an abort, or a run past its limits is a finding.

use grundy::interrupt;
use libfuzzer_sys::arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

#[path = "program_gen.rs"]
mod program_gen;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(text) = program_gen::Gen::new(&mut u).program() else {
        return;
    };
    if std::env::var_os("PROGRAMS_PRINT").is_some() {
        eprintln!("{text}");
    }
    interrupt::set_time_limit(Some(std::time::Duration::from_secs(2)));
    interrupt::set_memory_limit(Some(256 << 20));
    interrupt::clear();
    let verdict = grundy_fuzz::claims(text.as_bytes());
    if std::env::var_os("PROGRAMS_PRINT").is_some() {
        eprintln!("{verdict:?}");
    }
});
