//! `grundy completions SHELL` and `grundy man`: what a shell and `man`
//! need, written from the same command-line definition as `--help`, so
//! they never fall out of step with it.

use super::{Cli, Failed, Output};
use clap::CommandFactory;

pub fn completions(shell: clap_complete::Shell, out: &mut Output) -> Result<(), Failed> {
    let mut command = Cli::command();
    out.lines(|w| {
        clap_complete::generate(shell, &mut command, "grundy", w);
        Ok(())
    });
    Ok(())
}

/// The manual page: the command and its options, then a section for each
/// subcommand with its own options and examples.
pub fn man(out: &mut Output) -> Result<(), Failed> {
    let command = Cli::command();
    out.lines(|w| {
        clap_mangen::Man::new(command.clone()).render(w)?;
        for sub in command.get_subcommands() {
            let sub = sub
                .clone()
                .display_name(format!("grundy-{}", sub.get_name()))
                .bin_name(format!("grundy {}", sub.get_name()));
            clap_mangen::Man::new(sub).render(w)?;
        }
        Ok(())
    });
    Ok(())
}
