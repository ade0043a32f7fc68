//! Local variables and the frame slots they live in.

use crate::eval::ir::{Ir, IrKind};
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
    /// Empty for a slot no user can name (a tuple taken apart).
    name: String,
    meaning: Meaning,
    ty: Type,
}

/// What a local name stands for.
enum Meaning {
    /// A frame slot, written by a parameter or a generator.
    Slot(u32),
    /// An expression put in wherever the name is used: a `let` name, or
    /// one part of a tuple pattern.
    Expr(Ir),
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
        // Every binding below this one keeps its slot while this one is
        // visible, so its index in the list is a slot no one else uses.
        let slot = self.locals.len() as u32;
        self.locals.push(Local {
            name: name.to_string(),
            meaning: Meaning::Slot(slot),
            ty,
        });
        self.frame_size = self.frame_size.max(self.locals.len());
        slot
    }

    /// A fresh slot that no name refers to.
    pub fn bind_hidden(&mut self, ty: Type) -> u32 {
        self.bind("", ty)
    }

    /// Makes a name stand for an expression, which shadows any earlier
    /// binding of it.
    pub fn alias(&mut self, name: &str, expr: Ir, ty: Type) {
        self.locals.push(Local {
            name: name.to_string(),
            meaning: Meaning::Expr(expr),
            ty,
        });
    }

    /// How many bindings there are, to return to with `truncate`.
    pub fn mark(&self) -> usize {
        self.locals.len()
    }

    /// Ends the bindings made since `mark`.
    pub fn truncate(&mut self, mark: usize) {
        self.locals.truncate(mark);
    }

    /// What a name refers to: its slot, or the expression it stands for.
    pub fn lookup(&self, name: &str) -> Option<(IrKind, Type)> {
        let local = self.locals.iter().rev().find(|l| l.name == name)?;
        let kind = match &local.meaning {
            Meaning::Slot(slot) => IrKind::Local(*slot),
            Meaning::Expr(ir) => ir.kind.clone(),
        };
        Some((kind, local.ty.clone()))
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.locals
            .iter()
            .map(|l| l.name.as_str())
            .filter(|n| !n.is_empty())
    }
}
