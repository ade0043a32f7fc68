//! Local variables and the frame slots they live in.

use crate::types::Type;

/// The variables visible at one point of a rule, function or claim.
pub struct Scope {
    locals: Vec<Local>,
    /// The most slots the frame ever needed.
    pub frame_size: usize,
    /// Whether solver queries (value, outcome, ...) are allowed here.
    pub allow_queries: bool,
}

struct Local {
    name: String,
    slot: u32,
    ty: Type,
}

impl Scope {
    pub fn new(allow_queries: bool) -> Scope {
        Scope {
            locals: Vec::new(),
            frame_size: 0,
            allow_queries,
        }
    }

    /// Binds a name to a fresh slot; it shadows any earlier binding.
    pub fn bind(&mut self, name: &str, ty: Type) -> u32 {
        let slot = self.locals.len() as u32;
        self.locals.push(Local {
            name: name.to_string(),
            slot,
            ty,
        });
        self.frame_size = self.frame_size.max(self.locals.len());
        slot
    }

    /// How many bindings there are, to return to with `truncate`.
    pub fn mark(&self) -> usize {
        self.locals.len()
    }

    /// Ends the bindings made since `mark`.
    pub fn truncate(&mut self, mark: usize) {
        self.locals.truncate(mark);
    }

    pub fn lookup(&self, name: &str) -> Option<(u32, Type)> {
        self.locals
            .iter()
            .rev()
            .find(|l| l.name == name)
            .map(|l| (l.slot, l.ty.clone()))
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.locals.iter().map(|l| l.name.as_str())
    }
}
