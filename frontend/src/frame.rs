//! Work put off until the frame a change paints in is done, without a wasm closure made
//! for each request.
//!
//! Leptos' `request_animation_frame` and `set_timeout` wrap each callback in a new wasm
//! closure, and a callback that only asks for the next step makes another: on a name
//! keystroke, the findings summary's "after this frame" and a field's "in two frames"
//! cost about 1 ms of the keystroke's frame at CPU 4 × (BENCHMARKS.md, keystroke to
//! paint), though neither does any work in it. Here the frame callbacks are JavaScript's
//! own, each queue has one closure made once, and the tasks asked for meanwhile run
//! together in it.

use std::cell::{Cell, RefCell};
use wasm_bindgen::prelude::*;

#[wasm_bindgen(
    inline_js = "export function after_paint(f) { requestAnimationFrame(() => setTimeout(f, 0)); }\n\
export function in_two_frames(f) { requestAnimationFrame(() => requestAnimationFrame(f)); }"
)]
extern "C" {
    #[wasm_bindgen(js_name = after_paint)]
    fn js_after_paint(f: &js_sys::Function);
    #[wasm_bindgen(js_name = in_two_frames)]
    fn js_in_two_frames(f: &js_sys::Function);
}

type Task = Box<dyn FnOnce()>;

/// Tasks waiting for one moment, and whether that moment has been asked for.
struct Queue {
    tasks: RefCell<Vec<Task>>,
    asked: Cell<bool>,
    // Made on first use and kept for the page's life: one per queue.
    run: RefCell<Option<Closure<dyn Fn()>>>,
}

impl Queue {
    const fn new() -> Self {
        Queue {
            tasks: RefCell::new(Vec::new()),
            asked: Cell::new(false),
            run: RefCell::new(None),
        }
    }
}

thread_local! {
    static AFTER_PAINT: Queue = const { Queue::new() };
    static IN_TWO_FRAMES: Queue = const { Queue::new() };
}

fn push(queue: &'static std::thread::LocalKey<Queue>, ask: fn(&js_sys::Function), task: Task) {
    queue.with(|q| {
        q.tasks.borrow_mut().push(task);
        if q.asked.replace(true) {
            return;
        }
        let mut run = q.run.borrow_mut();
        let run = run.get_or_insert_with(|| {
            Closure::new(move || {
                // Taken out first: a task may ask for the same moment again, for the
                // next time it comes.
                let tasks = queue.with(|q| {
                    q.asked.set(false);
                    std::mem::take(&mut *q.tasks.borrow_mut())
                });
                for task in tasks {
                    task();
                }
            })
        });
        ask(run.as_ref().unchecked_ref());
    });
}

/// Runs `task` once the next frame has been painted: in a task after it, so the frame
/// shows what a change paints first, and `task`'s own changes come one frame later.
pub fn after_paint(task: impl FnOnce() + 'static) {
    push(&AFTER_PAINT, js_after_paint, Box::new(task));
}

/// Runs `task` at the start of the frame after the next, when what a change paints has
/// been laid out once: a measurement then forces no layout of its own.
pub fn in_two_frames(task: impl FnOnce() + 'static) {
    push(&IN_TWO_FRAMES, js_in_two_frames, Box::new(task));
}
