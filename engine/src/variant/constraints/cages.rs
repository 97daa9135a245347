//! Stub.
#![allow(unused)]

use crate::variant::model::*;
use crate::variant::propagate::*;

/// Stub.
pub(super) fn killer(cells: &[Cell], sum: Option<u32>, context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}

/// Stub.
pub(super) fn arrow(circle: &[Cell], line: &[Cell], context: &Context) -> Vec<Box<dyn Propagator>> {
    todo!()
}
