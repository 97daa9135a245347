//! Stub.
#![allow(unused)]

use crate::variant::model::*;
use crate::variant::propagate::*;

/// Stub.
pub(super) fn non_consecutive(context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn dot(cells: [Cell; 2], relation: Relation, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn negative(kind: NegativeKind, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}
