//! The components of a move's result. Most moves lead to one position, and
//! the search lists every option of every position it visits: one
//! component is held inline, with no allocation, and only a sum of several
//! is shared behind an `Arc`.

use crate::eval::PosId;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Components {
    One([PosId; 1]),
    Many(Arc<[PosId]>),
}

impl std::ops::Deref for Components {
    type Target = [PosId];
    fn deref(&self) -> &[PosId] {
        match self {
            Components::One(one) => one,
            Components::Many(many) => many,
        }
    }
}

impl From<Arc<[PosId]>> for Components {
    fn from(parts: Arc<[PosId]>) -> Components {
        match *parts {
            [one] => Components::One([one]),
            _ => Components::Many(parts),
        }
    }
}

impl From<Vec<PosId>> for Components {
    fn from(parts: Vec<PosId>) -> Components {
        match parts[..] {
            [one] => Components::One([one]),
            _ => Components::Many(parts.into()),
        }
    }
}
