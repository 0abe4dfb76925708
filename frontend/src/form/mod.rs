//! The create form (SPEC.md sections 2–6): real controls for every field, checked in
//! the browser by the shared crate on every change.
//!
//! [`TaskForm`] provides a [`FormCx`] (the draft, its check, which findings show) to
//! one editor per section. Every control is named by its field path
//! (`environment.env[2].value`), the path findings carry, so a finding finds its
//! control and a test or an embedding page can address any field.

pub mod advanced;
mod anchor;
pub mod basic;
pub mod compute;
pub mod context;
pub mod draft;
pub mod environment;
pub mod field;
pub mod lists;
mod pointer;
pub mod preview;
pub mod pytorch;
pub mod ray;
pub mod section;
pub mod specs;
pub mod task_form;
pub mod transfer;

pub use context::{FormCx, control_id};
pub use task_form::{TaskForm, UsageReadAt};
