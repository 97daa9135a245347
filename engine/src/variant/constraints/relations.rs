//! Stub.
#![allow(unused)]

use crate::variant::model::*;
use crate::variant::propagate::*;

/// Stub.
pub(super) fn clone(cells: &[Cell], clones: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn indexer(indexer: Indexer, cells: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}
