//! Stub.
#![allow(unused)]

use crate::variant::model::*;
use crate::variant::propagate::*;

/// Stub.
pub(super) fn odd(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn even(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn minimum(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn maximum(cell: Cell, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn candidates(cell: Cell, digits: &[u8], context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn quadruple(cells: &[Cell], digits: &[u8], context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}
