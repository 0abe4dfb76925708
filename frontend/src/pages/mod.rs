//! One module per route.

pub mod task_new;
