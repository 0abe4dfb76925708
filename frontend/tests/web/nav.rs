//! Routes read from paths and written back as addresses.

use frontend::nav::Route;
use wasm_bindgen_test::*;

#[wasm_bindgen_test]
fn paths_read_as_routes_and_routes_write_back_their_path() {
    let cases = [
        ("/", "", Route::List, "/"),
        ("/tasks/", "", Route::List, "/"),
        ("/new", "", Route::New { clone: None }, "/new"),
        ("/tasks/new", "", Route::New { clone: None }, "/new"),
        (
            "/new",
            "?clone=abc-1",
            Route::New {
                clone: Some("abc-1".into()),
            },
            "/new?clone=abc-1",
        ),
        (
            "/tasks/abc-1",
            "",
            Route::Detail("abc-1".into()),
            "/tasks/abc-1",
        ),
        (
            "/shared/t0k",
            "",
            Route::Shared("t0k".into()),
            "/shared/t0k",
        ),
        (
            "/tasks/a%20b",
            "",
            Route::Detail("a b".into()),
            "/tasks/a%20b",
        ),
    ];
    for (path, query, route, href) in cases {
        assert_eq!(Route::parse(path, query), route, "{path}{query}");
        assert_eq!(route.href(), href);
    }
    assert_eq!(
        Route::parse("/tasks/a/b", ""),
        Route::NotFound("/tasks/a/b".into())
    );
}
