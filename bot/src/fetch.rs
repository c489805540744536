//! Getting the bytes of an uploaded file (`/npc install` with an attachment).
//!
//! The core sees only an attachment's URL; how to read it is the transport's
//! business: the Discord adapter downloads Discord's CDN URL over HTTP, the console
//! reads a local file (`file:scripts/shop.ghul`). A core built without a fetcher
//! refuses attachments, so a transport cannot read local files by accident.

use std::future::Future;
use std::pin::Pin;

/// Why a file could not be read. The message is shown to the user, so it names the
/// problem without internal details.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FetchError {
    #[error("the file is larger than {max_bytes} bytes")]
    TooLarge { max_bytes: usize },
    #[error("attachments cannot be read here")]
    Unsupported,
    #[error("the file could not be read: {0}")]
    Failed(String),
}

/// The future a [`Fetch`] returns.
pub type FetchFuture<'a> = Pin<Box<dyn Future<Output = Result<Vec<u8>, FetchError>> + Send + 'a>>;

/// Reads the bytes behind an attachment URL, at most `max_bytes` of them (a larger
/// file is [`FetchError::TooLarge`], never read whole).
pub trait Fetch: Send + Sync {
    fn fetch<'a>(&'a self, url: &'a str, max_bytes: usize) -> FetchFuture<'a>;
}

/// Refuses every URL: the default of a core.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoFetch;

impl Fetch for NoFetch {
    fn fetch<'a>(&'a self, _url: &'a str, _max_bytes: usize) -> FetchFuture<'a> {
        Box::pin(async { Err(FetchError::Unsupported) })
    }
}

/// Reads local files: `file:PATH` or a bare path. For the console, whose user owns
/// the machine.
#[derive(Debug, Default, Clone, Copy)]
pub struct FileFetch;

impl Fetch for FileFetch {
    fn fetch<'a>(&'a self, url: &'a str, max_bytes: usize) -> FetchFuture<'a> {
        Box::pin(async move {
            use tokio::io::AsyncReadExt as _;
            let path = url.strip_prefix("file:").unwrap_or(url);
            let failed = |error: std::io::Error| FetchError::Failed(format!("{path}: {error}"));
            let metadata = tokio::fs::metadata(path).await.map_err(failed)?;
            // A device or a pipe (a link to /dev/zero, a FIFO) has no size to check
            // and may never end: only regular files are attachments.
            if !metadata.is_file() {
                return Err(FetchError::Failed(format!("{path} is not a regular file")));
            }
            if metadata.len() > max_bytes as u64 {
                return Err(FetchError::TooLarge { max_bytes });
            }
            // The file may grow after the check: read one byte past the limit at most.
            let file = tokio::fs::File::open(path).await.map_err(failed)?;
            let mut bytes = Vec::new();
            file.take(
                u64::try_from(max_bytes)
                    .unwrap_or(u64::MAX)
                    .saturating_add(1),
            )
            .read_to_end(&mut bytes)
            .await
            .map_err(failed)?;
            if bytes.len() > max_bytes {
                return Err(FetchError::TooLarge { max_bytes });
            }
            Ok(bytes)
        })
    }
}

/// Serves fixed bytes by URL: for tests.
#[derive(Debug, Default, Clone)]
pub struct MapFetch(pub std::collections::HashMap<String, Vec<u8>>);

impl Fetch for MapFetch {
    fn fetch<'a>(&'a self, url: &'a str, max_bytes: usize) -> FetchFuture<'a> {
        Box::pin(async move {
            let bytes = self
                .0
                .get(url)
                .ok_or_else(|| FetchError::Failed("not found".to_owned()))?;
            if bytes.len() > max_bytes {
                return Err(FetchError::TooLarge { max_bytes });
            }
            Ok(bytes.clone())
        })
    }
}

/// Downloads `http://` and `https://` URLs (Discord's CDN): a timeout, and the body
/// read in chunks so a file larger than allowed is refused without being held.
#[derive(Debug, Clone)]
pub struct HttpFetch {
    client: reqwest::Client,
}

impl HttpFetch {
    pub fn new(timeout: std::time::Duration) -> Result<HttpFetch, FetchError> {
        let client = reqwest::Client::builder()
            .timeout(timeout)
            .redirect(reqwest::redirect::Policy::limited(3))
            .build()
            .map_err(|error| FetchError::Failed(error.to_string()))?;
        Ok(HttpFetch { client })
    }
}

impl Fetch for HttpFetch {
    fn fetch<'a>(&'a self, url: &'a str, max_bytes: usize) -> FetchFuture<'a> {
        Box::pin(async move {
            if !(url.starts_with("https://") || url.starts_with("http://")) {
                return Err(FetchError::Unsupported);
            }
            let mut response = self
                .client
                .get(url)
                .send()
                .await
                .map_err(|error| FetchError::Failed(describe(&error)))?;
            if !response.status().is_success() {
                return Err(FetchError::Failed(format!("HTTP {}", response.status())));
            }
            if response
                .content_length()
                .is_some_and(|length| length > max_bytes as u64)
            {
                return Err(FetchError::TooLarge { max_bytes });
            }
            let mut bytes = Vec::new();
            while let Some(chunk) = response
                .chunk()
                .await
                .map_err(|error| FetchError::Failed(describe(&error)))?
            {
                if bytes.len() + chunk.len() > max_bytes {
                    return Err(FetchError::TooLarge { max_bytes });
                }
                bytes.extend_from_slice(&chunk);
            }
            Ok(bytes)
        })
    }
}

/// A short reason, without the URL (which may carry a signed query).
fn describe(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        return "the download timed out".to_owned();
    }
    if error.is_connect() {
        return "the server could not be reached".to_owned();
    }
    "the download failed".to_owned()
}
