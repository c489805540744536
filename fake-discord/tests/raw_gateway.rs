use std::io::Read;

use fake_discord::{FakeConfig, FakeDiscord, GatewayRecord};
use flate2::read::ZlibDecoder;
use futures::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream, connect_async};

use crate::support::WAIT;

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

async fn connect(fake: &FakeDiscord) -> Socket {
    let (socket, _) = connect_async(format!("{}?v=10", fake.gateway_url()))
        .await
        .expect("gateway connection");
    socket
}

/// The next frame as JSON; a close frame as `{"close": code}`.
async fn receive(socket: &mut Socket) -> Value {
    loop {
        let frame = tokio::time::timeout(WAIT, socket.next())
            .await
            .expect("a frame in time");
        match frame.expect("socket open").expect("valid frame") {
            Message::Text(text) => return serde_json::from_str(&text).expect("JSON"),
            Message::Binary(bytes) => {
                let mut text = String::new();
                ZlibDecoder::new(bytes.as_slice())
                    .read_to_string(&mut text)
                    .expect("one zlib stream");
                return serde_json::from_str(&text).expect("JSON");
            }
            Message::Close(frame) => return json!({"close": frame.map(|f| u16::from(f.code))}),
            _ => {}
        }
    }
}

async fn send(socket: &mut Socket, payload: Value) {
    socket
        .send(Message::Text(payload.to_string()))
        .await
        .expect("sent");
}

fn identify(token: &str, shard: [u32; 2], intents: u64) -> Value {
    json!({"op": 2, "d": {"token": token, "intents": intents, "shard": shard, "compress": true,
        "properties": {"os": "linux", "browser": "test", "device": "test"}}})
}

/// `(op, t, s)` of a frame.
fn header(frame: &Value) -> (u64, Option<&str>, Option<u64>) {
    (
        frame["op"].as_u64().unwrap_or(99),
        frame["t"].as_str(),
        frame["s"].as_u64(),
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn sequence_numbers_survive_a_resume_with_replay() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    // Queued before anyone is connected: sent after READY.
    fake.dispatch(
        "TYPING_START",
        json!({"channel_id": "1", "user_id": "2", "timestamp": 0}),
    );
    let mut socket = connect(&fake).await;
    let hello = receive(&mut socket).await;
    assert_eq!(
        (
            hello["op"].as_u64(),
            hello["d"]["heartbeat_interval"].as_u64()
        ),
        (Some(10), Some(41_250))
    );
    send(&mut socket, identify("Bot any", [0, 1], 1)).await;
    let ready = receive(&mut socket).await;
    assert_eq!(header(&ready), (0, Some("READY"), Some(1)));
    assert_eq!(
        ready["d"]["application"]["id"],
        fake.config().application_id.to_string()
    );
    assert_eq!(ready["d"]["resume_gateway_url"], fake.gateway_url());
    let session_id = ready["d"]["session_id"]
        .as_str()
        .expect("session id")
        .to_owned();
    assert_eq!(
        header(&receive(&mut socket).await),
        (0, Some("TYPING_START"), Some(2))
    );
    fake.dispatch(
        "TYPING_START",
        json!({"channel_id": "1", "user_id": "3", "timestamp": 0}),
    );
    assert_eq!(
        header(&receive(&mut socket).await),
        (0, Some("TYPING_START"), Some(3))
    );
    send(&mut socket, json!({"op": 1, "d": 3})).await;
    assert_eq!(header(&receive(&mut socket).await), (11, None, None));

    socket.close(None).await.expect("closed");
    fake.wait_gateway(WAIT, |r| {
        matches!(r, GatewayRecord::Closed { by_fake: false, .. })
    })
    .await
    .expect("close seen");
    fake.dispatch(
        "TYPING_START",
        json!({"channel_id": "1", "user_id": "4", "timestamp": 0}),
    );

    // The client claims it saw only up to 2: the fake replays 3, then RESUMED, then the
    // event that waited for the session.
    let mut socket = connect(&fake).await;
    assert_eq!(header(&receive(&mut socket).await).0, 10);
    send(
        &mut socket,
        json!({"op": 6, "d": {"token": "Bot any", "session_id": session_id, "seq": 2}}),
    )
    .await;
    let replayed = receive(&mut socket).await;
    assert_eq!(
        (header(&replayed), replayed["d"]["user_id"].as_str()),
        ((0, Some("TYPING_START"), Some(3)), Some("3"))
    );
    assert_eq!(
        header(&receive(&mut socket).await),
        (0, Some("RESUMED"), Some(4))
    );
    let waited = receive(&mut socket).await;
    assert_eq!(
        (header(&waited), waited["d"]["user_id"].as_str()),
        ((0, Some("TYPING_START"), Some(5)), Some("4"))
    );
    assert_eq!(fake.identify_count(), 1);
    assert!(fake.gateway_log().contains(&GatewayRecord::Resumed {
        shard: 0,
        replayed: 1
    }));
    fake.assert_no_violations();
}

#[tokio::test(flavor = "multi_thread")]
async fn a_resume_of_an_unknown_session_gets_op9_false() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let mut socket = connect(&fake).await;
    receive(&mut socket).await;
    send(
        &mut socket,
        json!({"op": 6, "d": {"token": "Bot any", "session_id": "nope", "seq": 7}}),
    )
    .await;
    let invalid = receive(&mut socket).await;
    assert_eq!(
        (invalid["op"].as_u64(), invalid["d"].as_bool()),
        (Some(9), Some(false))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn bad_identifies_are_closed_with_discords_codes() {
    let config = FakeConfig {
        token: Some("right".into()),
        message_content_intent_allowed: false,
        shard_count: 2,
        ..FakeConfig::default()
    };
    let fake = FakeDiscord::start(config).await;
    let cases = [
        ("wrong token", identify("Bot wrong", [0, 2], 1), 4004),
        ("shard out of range", identify("Bot right", [2, 2], 1), 4010),
        ("wrong shard total", identify("Bot right", [0, 3], 1), 4010),
        (
            "message content not allowed",
            identify("Bot right", [0, 2], 1 << 15),
            4014,
        ),
    ];
    for (name, payload, code) in cases {
        let mut socket = connect(&fake).await;
        receive(&mut socket).await;
        send(&mut socket, payload).await;
        assert_eq!(receive(&mut socket).await, json!({"close": code}), "{name}");
    }
    let mut socket = connect(&fake).await;
    receive(&mut socket).await;
    send(&mut socket, identify("Bot right", [1, 2], 1)).await;
    assert_eq!(
        header(&receive(&mut socket).await),
        (0, Some("READY"), Some(1))
    );
    send(&mut socket, identify("Bot right", [1, 2], 1)).await;
    assert_eq!(
        receive(&mut socket).await,
        json!({"close": 4005}),
        "a second IDENTIFY"
    );
    let rules: Vec<_> = fake.take_violations().iter().map(|v| v.rule).collect();
    assert_eq!(
        rules,
        vec![
            fake_discord::Rule::Unauthorized,
            fake_discord::Rule::Gateway,
            fake_discord::Rule::Gateway
        ]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn compressed_dispatches_are_one_zlib_stream_each() {
    let fake = FakeDiscord::start(FakeConfig {
        compress_dispatches: true,
        ..FakeConfig::default()
    })
    .await;
    let mut socket = connect(&fake).await;
    receive(&mut socket).await;
    send(&mut socket, identify("Bot any", [0, 1], 1)).await;
    let first = tokio::time::timeout(WAIT, socket.next())
        .await
        .expect("frame")
        .expect("open")
        .expect("valid");
    let Message::Binary(bytes) = first else {
        panic!("expected a binary frame, got {first:?}")
    };
    let mut text = String::new();
    ZlibDecoder::new(bytes.as_slice())
        .read_to_string(&mut text)
        .expect("zlib");
    assert_eq!(
        header(&serde_json::from_str(&text).expect("JSON")),
        (0, Some("READY"), Some(1))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn rest_answers_unknown_routes_with_404_and_records_them() {
    let fake = FakeDiscord::start(FakeConfig::default()).await;
    let gateway = fake.gateway_url();
    // A minimal HTTP/1.1 client keeps reqwest out of the direct dependencies.
    let address = fake.api_base().trim_start_matches("http://").to_owned();
    let answer = http_get(&address, "/api/v10/guilds/1/audit-logs").await;
    assert!(answer.starts_with("HTTP/1.1 404"), "{answer}");
    assert!(answer.contains("Unknown route (fake)"));
    let gateway_answer = http_get(&address, "/api/v10/gateway").await;
    assert!(gateway_answer.contains(&gateway), "{gateway_answer}");
    let rules: Vec<_> = fake
        .take_violations()
        .iter()
        .map(|v| (v.rule, v.source.clone()))
        .collect();
    assert_eq!(
        rules,
        vec![(
            fake_discord::Rule::UnknownRoute,
            "GET /guilds/1/audit-logs".to_owned()
        )]
    );
}

async fn http_get(address: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = TcpStream::connect(address).await.expect("connect");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("request");
    let mut answer = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut answer))
        .await
        .expect("answer in time")
        .expect("answer");
    answer
}
