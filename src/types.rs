//! The types of values in the language, shared by the parser (type
//! annotations), the checker (inference) and the interpreter (parameters).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    /// A whole number that is never negative.
    Nat,
    Int,
    Bool,
    Str,
    /// A list of equal-length strings.
    Grid,
    /// A position of some game, or a sum of positions.
    Game,
    List(Box<Type>),
    Set(Box<Type>),
    Tuple(Vec<Type>),
    /// Not known before running: accepted wherever a type is expected.
    Unknown,
}

impl Type {
    /// Whether a value of type `self` may stand where `expected` is wanted.
    /// Unknown fits anything; an int fits a nat (the sign is checked when
    /// the program runs); a list of strings fits a grid.
    pub fn fits(&self, expected: &Type) -> bool {
        use Type::*;
        match (self, expected) {
            (Unknown, _) | (_, Unknown) => true,
            (Nat | Int, Nat | Int) => true,
            (Grid, Grid) | (Grid, List(_)) | (List(_), Grid) => true,
            (List(a), List(b)) | (Set(a), Set(b)) => a.fits(b),
            (Tuple(a), Tuple(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.fits(y)),
            (a, b) => a == b,
        }
    }

    pub fn is_numeric(&self) -> bool {
        matches!(self, Type::Nat | Type::Int | Type::Unknown)
    }

    /// The type of one element when iterating over a value of this type.
    pub fn element(&self) -> Option<Type> {
        match self {
            Type::List(t) | Type::Set(t) => Some((**t).clone()),
            Type::Str => Some(Type::Str),
            Type::Grid => Some(Type::Str),
            Type::Unknown | Type::Tuple(_) => Some(Type::Unknown),
            _ => None,
        }
    }

    /// The more precise of two types that fit each other.
    pub fn join(&self, other: &Type) -> Type {
        match (self, other) {
            (Type::Unknown, t) | (t, Type::Unknown) => t.clone(),
            (Type::Nat, Type::Int) | (Type::Int, Type::Nat) => Type::Int,
            (Type::List(a), Type::List(b)) => Type::List(Box::new(a.join(b))),
            (Type::Set(a), Type::Set(b)) => Type::Set(Box::new(a.join(b))),
            (a, _) => a.clone(),
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Nat => write!(f, "nat"),
            Type::Int => write!(f, "int"),
            Type::Bool => write!(f, "bool"),
            Type::Str => write!(f, "str"),
            Type::Grid => write!(f, "grid"),
            Type::Game => write!(f, "game"),
            Type::List(t) => write!(f, "[{t}]"),
            Type::Set(t) => write!(f, "{{{t}}}"),
            Type::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
            Type::Unknown => write!(f, "any"),
        }
    }
}
