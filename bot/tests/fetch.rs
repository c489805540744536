//! Reading attachments: local files for the console, HTTP for Discord's CDN, and
//! nothing at all by default.

use std::time::Duration;

use tavern::fetch::{Fetch, FetchError, FileFetch, HttpFetch, NoFetch};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::support::TempDir;

/// Serves one canned HTTP answer per connection on loopback; returns the base URL.
async fn serve(answers: Vec<Vec<u8>>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        for answer in answers {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            let mut request = vec![0u8; 4096];
            let _ = socket.read(&mut request).await;
            let _ = socket.write_all(&answer).await;
            let _ = socket.shutdown().await;
        }
    });
    format!("http://{address}")
}

fn answer(status: &str, headers: &str, body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("HTTP/1.1 {status}\r\n{headers}Connection: close\r\n\r\n").into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

#[tokio::test]
async fn http_downloads_are_bounded() {
    let body = b"CONV c { }\n".to_vec();
    let base = serve(vec![
        answer(
            "200 OK",
            &format!("Content-Length: {}\r\n", body.len()),
            &body,
        ),
        answer("200 OK", "Content-Length: 5000000\r\n", b""),
        // No length announced: the body is cut off while it streams.
        answer("200 OK", "", &[b'x'; 3000]),
        answer("404 Not Found", "Content-Length: 0\r\n", b""),
    ])
    .await;
    let fetch = HttpFetch::new(Duration::from_secs(10)).unwrap();
    assert_eq!(fetch.fetch(&format!("{base}/a.ghul"), 100).await, Ok(body));
    assert_eq!(
        fetch.fetch(&format!("{base}/big.ghul"), 100).await,
        Err(FetchError::TooLarge { max_bytes: 100 })
    );
    assert_eq!(
        fetch.fetch(&format!("{base}/stream.ghul"), 1000).await,
        Err(FetchError::TooLarge { max_bytes: 1000 })
    );
    assert_eq!(
        fetch.fetch(&format!("{base}/missing.ghul"), 100).await,
        Err(FetchError::Failed("HTTP 404 Not Found".to_owned()))
    );
    assert_eq!(
        fetch.fetch("file:/etc/passwd", 100).await,
        Err(FetchError::Unsupported)
    );
}

#[tokio::test]
async fn files_are_read_for_the_console_only() {
    let dir = TempDir::new("fetch");
    let path = dir.path("shop.ghul");
    std::fs::write(&path, "CONV c { }\n").unwrap();
    let url = format!("file:{}", path.display());
    assert_eq!(
        FileFetch.fetch(&url, 100).await,
        Ok(b"CONV c { }\n".to_vec())
    );
    assert_eq!(
        FileFetch.fetch(&url, 5).await,
        Err(FetchError::TooLarge { max_bytes: 5 })
    );
    assert!(matches!(
        FileFetch.fetch("file:/nonexistent/x.ghul", 100).await,
        Err(FetchError::Failed(_))
    ));
    assert_eq!(NoFetch.fetch(&url, 100).await, Err(FetchError::Unsupported));
}
