//! The TLS path of [`Callbacks`], the one every production callback takes, against a
//! TLS server on loopback: a test authority signs a certificate for discord.com, and
//! the client connects to 127.0.0.1 but verifies the name discord.com against that
//! authority alone, as it verifies discord.com's own against the web's roots.

use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, KeyPair};
use serenity::all::InteractionId;
use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::{RootCertStore, ServerConfig};

use super::tests::request_length;
use super::{CallbackError, Callbacks, Target};

/// A certificate authority of the test's own.
struct Authority {
    certificate: rcgen::Certificate,
    key: KeyPair,
}

impl Authority {
    fn new(name: &str) -> Authority {
        let key = KeyPair::generate().expect("a CA key");
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("CA parameters");
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let certificate = params.self_signed(&key).expect("a CA certificate");
        Authority { certificate, key }
    }

    /// The roots a client trusting this authority alone verifies with.
    fn roots(&self) -> RootCertStore {
        let mut roots = RootCertStore::empty();
        roots
            .add(self.certificate.der().clone())
            .expect("the CA as a root");
        roots
    }

    /// A server certificate for `name`, and its key.
    fn issue(&self, name: &str) -> (CertificateDer<'static>, PrivateKeyDer<'static>) {
        let key = KeyPair::generate().expect("a server key");
        let params = CertificateParams::new(vec![name.to_owned()]).expect("server parameters");
        let certificate = params
            .signed_by(&key, &self.certificate, &self.key)
            .expect("a server certificate");
        let key = PrivatePkcs8KeyDer::from(key.serialize_der());
        (certificate.der().clone(), key.into())
    }
}

/// What the server saw on one connection.
#[derive(Debug)]
struct Seen {
    /// The protocol ALPN agreed on, or why the handshake failed.
    handshake: Result<Option<Vec<u8>>, String>,
    /// Each request, as the bytes that came.
    requests: Vec<Vec<u8>>,
}

/// A TLS server on 127.0.0.1 presenting `identity`, offering h2 and http/1.1. It
/// takes `connections` connections one after the other, answers each request with
/// the next of `replies` (closing the connection when none is left), reads each
/// connection until the client closes it, and then tells what it saw.
async fn tls_server(
    identity: (CertificateDer<'static>, PrivateKeyDer<'static>),
    connections: usize,
    replies: Vec<String>,
) -> (String, JoinHandle<Vec<Seen>>) {
    let (certificate, key) = identity;
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let mut config = ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![certificate], key)
        .expect("a server configuration");
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    let acceptor = TlsAcceptor::from(Arc::new(config));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("an address").to_string();
    let server = tokio::spawn(async move {
        let mut replies = replies.into_iter();
        let mut seen = Vec::new();
        for _ in 0..connections {
            let (socket, _) = listener.accept().await.expect("a connection");
            let mut tls = match acceptor.accept(socket).await {
                Ok(tls) => tls,
                Err(error) => {
                    seen.push(Seen {
                        handshake: Err(error.to_string()),
                        requests: Vec::new(),
                    });
                    continue;
                }
            };
            let alpn = tls.get_ref().1.alpn_protocol().map(<[u8]>::to_vec);
            let mut requests = Vec::new();
            let mut buffer = Vec::new();
            loop {
                if let Some(length) = request_length(&buffer) {
                    requests.push(buffer.drain(..length).collect());
                    let Some(reply) = replies.next() else {
                        break;
                    };
                    if tls.write_all(reply.as_bytes()).await.is_err() {
                        break;
                    }
                    continue;
                }
                // The client closes without close_notify: an error is its end too.
                match tls.read_buf(&mut buffer).await {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {}
                }
            }
            seen.push(Seen {
                handshake: Ok(alpn),
                requests,
            });
        }
        seen
    });
    (address, server)
}

/// Callbacks to `address` that take it for discord.com, trusting `authority` alone.
fn to_loopback(authority: &Authority, address: String) -> Callbacks {
    let target = Target::tls(authority.roots(), address, "discord.com").expect("a TLS target");
    Callbacks::to(target, "secret")
}

/// A response with a known serialization (the fields in this order).
#[derive(serde::Serialize)]
struct Response {
    r#type: u8,
    data: Data,
}

#[derive(serde::Serialize)]
struct Data {
    content: &'static str,
}

fn roll() -> Response {
    Response {
        r#type: 4,
        data: Data {
            content: "1d20 = 17",
        },
    }
}

/// The bytes Discord should get for `roll()` as the callback of interaction `id`.
fn expected_request(id: u64, token: &str) -> String {
    let body = r#"{"type":4,"data":{"content":"1d20 = 17"}}"#;
    format!(
        "POST /api/v10/interactions/{id}/{token}/callback HTTP/1.1\r\n\
         host: discord.com\r\n\
         user-agent: {}\r\n\
         authorization: Bot secret\r\n\
         content-length: {}\r\n\
         content-type: application/json\r\n\
         accept: */*\r\n\
         \r\n\
         {body}",
        serenity::constants::USER_AGENT,
        body.len(),
    )
}

#[tokio::test]
async fn callbacks_go_over_tls_as_written_and_share_one_connection() {
    let authority = Authority::new("Tavern test CA");
    let no_content = "HTTP/1.1 204 No Content\r\n\r\n".to_owned();
    let (address, server) = tls_server(
        authority.issue("discord.com"),
        1,
        vec![no_content.clone(), no_content],
    )
    .await;
    let callbacks = to_loopback(&authority, address);
    let first = callbacks
        .post(InteractionId::new(7), "tok.en", &roll())
        .await;
    assert!(first.is_ok(), "{first:?}");
    let second = callbacks
        .post(InteractionId::new(8), "other", &roll())
        .await;
    assert!(second.is_ok(), "{second:?}");
    // Closes the kept connection, which ends the server.
    drop(callbacks);
    let seen = server.await.expect("the server");
    assert_eq!(seen.len(), 1, "one connection: {seen:?}");
    let connection = &seen[0];
    assert_eq!(
        connection.handshake,
        Ok(Some(b"http/1.1".to_vec())),
        "ALPN agrees on HTTP/1.1 although the server prefers h2"
    );
    let requests: Vec<String> = connection
        .requests
        .iter()
        .map(|request| String::from_utf8_lossy(request).into_owned())
        .collect();
    assert_eq!(
        requests,
        [expected_request(7, "tok.en"), expected_request(8, "other")]
    );
}

#[tokio::test]
async fn a_refusal_over_tls_tells_its_status_and_body() {
    let authority = Authority::new("Tavern test CA");
    let body = r#"{"message":"Interaction has already been acknowledged.","code":40060}"#;
    let refusal = format!(
        "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    let (address, server) = tls_server(authority.issue("discord.com"), 1, vec![refusal]).await;
    let callbacks = to_loopback(&authority, address);
    let posted = callbacks.post(InteractionId::new(9), "t", &roll()).await;
    match &posted {
        Err(error @ CallbackError::Refused { status, body: got }) => {
            assert_eq!((*status, got.as_str()), (400, body));
            assert!(!error.nothing_sent());
        }
        other => panic!("{other:?}"),
    }
    drop(callbacks);
    let seen = server.await.expect("the server");
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].requests.len(), 1);
}

/// A certificate the client must refuse: the handshake fails, the error says nothing
/// was sent, and the server got no request.
async fn refused_certificate(
    trusted: &Authority,
    identity: (CertificateDer<'static>, PrivateKeyDer<'static>),
) -> String {
    let (address, server) = tls_server(identity, 1, Vec::new()).await;
    let callbacks = to_loopback(trusted, address);
    let posted = callbacks.post(InteractionId::new(10), "t", &roll()).await;
    let error = match posted {
        Err(error @ CallbackError::Handshake(_)) => error,
        other => panic!("{other:?}"),
    };
    assert!(error.nothing_sent(), "{error}");
    let seen = server.await.expect("the server");
    assert_eq!(seen.len(), 1);
    assert!(seen[0].handshake.is_err(), "{seen:?}");
    assert!(seen[0].requests.is_empty(), "{seen:?}");
    error.to_string()
}

#[tokio::test]
async fn a_certificate_for_another_name_is_refused_before_writing() {
    let authority = Authority::new("Tavern test CA");
    let error = refused_certificate(&authority, authority.issue("example.com")).await;
    assert!(error.contains("not valid for name"), "{error}");
}

#[tokio::test]
async fn a_certificate_from_an_unknown_authority_is_refused_before_writing() {
    let trusted = Authority::new("Tavern test CA");
    let other = Authority::new("Someone else's CA");
    let error = refused_certificate(&trusted, other.issue("discord.com")).await;
    assert!(error.contains("UnknownIssuer"), "{error}");
}

#[tokio::test]
async fn a_server_that_never_finishes_the_handshake_times_out_before_writing() {
    let authority = Authority::new("Tavern test CA");
    // Accepts the TCP connection and then says nothing: the client's hello waits.
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let address = listener.local_addr().expect("an address").to_string();
    let server = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("a connection");
        let mut received = Vec::new();
        // Until the client gives up and closes.
        let _ = socket.read_to_end(&mut received).await;
        received
    });
    let mut callbacks = to_loopback(&authority, address);
    callbacks.connect_timeout = std::time::Duration::from_millis(100);
    let posted = callbacks.post(InteractionId::new(11), "t", &roll()).await;
    let error = match posted {
        Err(error @ CallbackError::Connect(_)) => error,
        other => panic!("{other:?}"),
    };
    assert!(error.nothing_sent(), "{error}");
    assert!(
        error.to_string().contains("no connection within"),
        "{error}"
    );
    drop(callbacks);
    let received = server.await.expect("the server");
    // A TLS client hello at most (a handshake record), never the request.
    assert!(
        received.first().is_none_or(|&kind| kind == 0x16),
        "{received:?}"
    );
    assert!(!received.windows(4).any(|w| w == b"POST"), "{received:?}");
}
