//! `grundy lsp` through the real binary: a scripted client speaks JSON-RPC
//! to it over standard input and output, as an editor would, and checks
//! each answer. Every wait has a time limit, so a server that hangs fails
//! the test instead of stalling it.

use serde_json::{json, Value as Json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);
const URI: &str = "file:///work/heap.game";

struct Client {
    /// The document the client has open.
    uri: String,
    child: Child,
    stdin: ChildStdin,
    incoming: Receiver<Json>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("grundy starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if sender.send(message).is_err() {
                    break;
                }
            }
        });
        Client {
            uri: URI.to_string(),
            child,
            stdin,
            incoming,
            next_id: 0,
        }
    }

    fn write(&mut self, message: Json) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The handshake: `initialize`, then `initialized`; the capabilities.
    fn initialize(&mut self) -> Json {
        let init = self.request("initialize", json!({"capabilities": {}}));
        self.notify("initialized", json!({}));
        init["capabilities"].clone()
    }

    fn notify(&mut self, method: &str, params: Json) {
        self.write(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result, skipping notifications.
    fn request(&mut self, method: &str, params: Json) -> Json {
        self.next_id += 1;
        let id = self.next_id;
        self.write(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
        }
    }

    /// The next diagnostics published.
    fn diagnostics(&mut self) -> Vec<Json> {
        self.published()["diagnostics"]
            .as_array()
            .expect("a list")
            .clone()
    }

    /// The parameters of the next `publishDiagnostics`.
    fn published(&mut self) -> Json {
        loop {
            let message = self.receive();
            if message["method"] == "textDocument/publishDiagnostics" {
                assert_eq!(message["params"]["uri"], self.uri.as_str());
                return message["params"].clone();
            }
        }
    }

    fn receive(&mut self) -> Json {
        self.incoming
            .recv_timeout(WAIT)
            .expect("the server answers in time")
    }

    fn at(&mut self, method: &str, line: u32, character: u32) -> Json {
        self.request(
            method,
            json!({"textDocument": {"uri": self.uri}, "position": {"line": line, "character": character}}),
        )
    }
}

/// One framed message: headers, a blank line, then `Content-Length` bytes.
fn read_message(reader: &mut impl BufRead) -> Option<Json> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A subtraction game with a doc comment, and an error on a line whose
/// string holds a character outside the Basic Multilingual Plane (two
/// UTF-16 units, four bytes), so a column counted in bytes or characters
/// would be wrong.
const WITH_ERROR: &str = "/// Take one to three counters.\n\
game Heap(n: nat) {\n    move take(k in 1..=min(3, n)) => Heap(n - k);\n}\n\
claim len(\"\u{1D53E}\") == 1 and valu(Heap(2)) == 2;\n";

/// The same game, one claim true (Heap(5) has value 5 mod 4 = 1) and one
/// false (Heap(6) has value 2).
const FIXED: &str = "/// Take one to three counters.\n\
game Heap(n: nat) {\n    move take(k in 1..=min(3, n)) => Heap(n - k);\n}\n\
claim value(Heap(5)) == 1;\n\
claim value(Heap(6)) == 1;\n";

/// A claim that would run for hours.
const LONG: &str = "game Heap(n: nat) {\n    move take(k in 1..=n) => Heap(n - k);\n}\n\
claim for n in 0..1000000000: value(Heap(n)) == n;\n";

#[test]
fn a_scripted_editor_session() {
    let mut client = Client::start();
    let caps = client.initialize();
    assert_eq!(caps["textDocumentSync"], 1, "full document sync");
    assert_eq!(caps["hoverProvider"], true);

    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "game", "version": 1, "text": WITH_ERROR}}),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    // `valu` starts after 24 characters, one of them two UTF-16 units.
    assert_eq!(
        d["range"],
        json!({"start": {"line": 4, "character": 25}, "end": {"line": 4, "character": 29}})
    );
    assert_eq!(d["code"], "grundy::unknown-name");
    assert_eq!(d["severity"], 1);
    let message = d["message"].as_str().unwrap();
    assert!(
        message.contains("unknown game or function `valu`"),
        "{message}"
    );
    assert!(message.contains("help: did you mean `value`?"), "{message}");

    // Typing the fix: the error goes, the false claim is reported on it.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": FIXED}]}),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "grundy::claim-failed");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 5);

    // Completion inside the move: the game, the parameter, the move's
    // variable, the built-ins and the keywords.
    let completion = client.at("textDocument/completion", 2, 38);
    let labels: Vec<&str> = completion
        .as_array()
        .expect("a list of items")
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    for expected in ["Heap", "n", "k", "min", "value", "claim", "nat"] {
        assert!(labels.contains(&expected), "{expected} in {labels:?}");
    }

    // Hover on `Heap` in the first claim: signature, doc comment, value.
    let hover = client.at("textDocument/hover", 4, 13);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("game Heap(n: nat)"), "{text}");
    assert!(text.contains("Take one to three counters."), "{text}");
    assert!(text.contains("value **1**"), "{text}");
    // Hover on a built-in.
    let hover = client.at("textDocument/hover", 4, 7);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("the Grundy value of a position"), "{text}");

    // Hover on the word `claim`: what became of it.
    let hover = client.at("textDocument/hover", 5, 2);
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.starts_with("fails: "), "{text}");

    // Go to definition: from `Heap(n - k)` to the game, from `k` to the
    // move's generator.
    let definition = client.at("textDocument/definition", 2, 39);
    assert_eq!(definition["uri"], URI);
    assert_eq!(
        definition["range"],
        json!({"start": {"line": 1, "character": 5}, "end": {"line": 1, "character": 9}})
    );
    let definition = client.at("textDocument/definition", 2, 46);
    assert_eq!(
        definition["range"]["start"],
        json!({"line": 2, "character": 14})
    );

    // A lens above each claim with its result.
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": URI}}),
    );
    let titles: Vec<&str> = lenses
        .as_array()
        .expect("a list of lenses")
        .iter()
        .map(|l| l["command"]["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles.len(), 2);
    assert_eq!(titles[0], "claim holds");
    assert!(titles[1].starts_with("claim fails"), "{titles:?}");

    assert_eq!(client.request("shutdown", Json::Null), Json::Null);
    client.notify("exit", Json::Null);
    let status = wait(&mut client.child);
    assert_eq!(status, Some(0));
}

/// `^` between two numbers is published as a warning, not an error, and
/// the claim it sits in still holds.
#[test]
fn a_xor_of_two_numbers_is_a_warning() {
    let mut client = Client::start();
    client.initialize();
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "game", "version": 1, "text": "claim 10^12 == 6;\n"}}),
    );
    let diagnostics = client.diagnostics();
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "grundy::xor-of-numbers");
    assert_eq!(diagnostics[0]["severity"], 2, "a warning");
    assert_eq!(client.request("shutdown", Json::Null), Json::Null);
    client.notify("exit", Json::Null);
    assert_eq!(wait(&mut client.child), Some(0));
}

/// A document beside the files of `tests/imports`, which it imports: its
/// diagnostics, definitions and errors may lie in those files.
#[test]
fn a_document_sees_the_files_it_imports() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/imports");
    let uri_of = |name: &str| format!("file://{}", folder.join(name).display());
    let mut client = Client::start();
    client.initialize();
    let open = |client: &mut Client, name: &str, text: &str| {
        client.uri = uri_of(name);
        client.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": client.uri, "languageId": "game", "version": 1, "text": text}}),
        );
        client.diagnostics()
    };
    // An unsaved document: its imports are found beside it.
    let text = "use \"subtract/take-123.game\";\nclaim value(Take(5) + Heap(2)) == 3;\n";
    assert_eq!(open(&mut client, "unsaved.game", text), Vec::<Json>::new());
    // Go to definition, into the imported file.
    let definition = client.at("textDocument/definition", 1, 13);
    assert_eq!(definition["uri"], uri_of("subtract/take-123.game"));
    assert_eq!(
        definition["range"],
        json!({"start": {"line": 4, "character": 5}, "end": {"line": 4, "character": 9}})
    );
    // Hover on `Take(5)`: the signature, the file it comes from, and the
    // value, g(5) = 5 mod 4.
    let hover = client.at("textDocument/hover", 1, 13);
    let text = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(text.contains("game Take(n: nat)"), "{text}");
    assert!(text.contains("take-123.game`"), "{text}");
    assert!(text.contains("value **1**"), "{text}");
    // Completion offers the names of the imported files.
    let completion = client.at("textDocument/completion", 1, 12);
    let labels: Vec<&str> = completion
        .as_array()
        .expect("a list of items")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    for expected in ["Take", "Beside", "Heap"] {
        assert!(labels.contains(&expected), "{expected} in {labels:?}");
    }
    // A name defined here and in an import: the other definition is
    // related information in its own file.
    let duplicate = std::fs::read_to_string(folder.join("duplicate.game")).expect("a fixture");
    let diagnostics = open(&mut client, "duplicate.game", &duplicate);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "grundy::duplicate");
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({"line": 3, "character": 5})
    );
    let related = &diagnostics[0]["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri_of("heaps.game"));
    assert_eq!(
        related["location"]["range"]["start"],
        json!({"line": 1, "character": 5})
    );
    // A loop among the files imported is shown on the `use` here, with
    // each `use` on the loop as related information.
    let diagnostics = open(&mut client, "unsaved.game", "\nuse \"cycle/first.game\";\n");
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "grundy::import-cycle");
    assert_eq!(
        diagnostics[0]["range"]["start"],
        json!({"line": 1, "character": 4})
    );
    let places: Vec<&str> = diagnostics[0]["relatedInformation"]
        .as_array()
        .expect("related information")
        .iter()
        .map(|r| r["location"]["uri"].as_str().unwrap_or(""))
        .collect();
    assert!(
        places.contains(&uri_of("cycle/first.game").as_str()),
        "{places:?}"
    );
    assert!(
        places.contains(&uri_of("cycle/second.game").as_str()),
        "{places:?}"
    );
    assert_eq!(client.request("shutdown", Json::Null), Json::Null);
    client.notify("exit", Json::Null);
    assert_eq!(wait(&mut client.child), Some(0));
}

/// The exit status, or a failed test if the process does not end in time.
fn wait(child: &mut Child) -> Option<i32> {
    let deadline = std::time::Instant::now() + WAIT;
    while std::time::Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    panic!("grundy lsp did not exit");
}

/// A claim that would run for hours is cut short: the server answers, and
/// its lens says the claim was not settled, without an error in the file.
#[test]
fn a_long_claim_does_not_hold_up_the_server() {
    let mut client = Client::start();
    client.initialize();
    let text = LONG;
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "game", "version": 1, "text": text}}),
    );
    assert_eq!(client.diagnostics(), Vec::<Json>::new());
    let lenses = client.request(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": URI}}),
    );
    let title = lenses[0]["command"]["title"].as_str().unwrap();
    assert!(title.starts_with("claim not settled"), "{title}");

    // Changes typed while a version is analysed are analysed once, as
    // the latest text. Version 2 takes the full 2 s (its claim is cut
    // short); the hover asked after it is answered only once it is
    // analysed, and versions 3 and 4 are sent meanwhile, without a pause
    // between them: 3 is never analysed on its own.
    let change = |client: &mut Client, version: i32, text: &str| {
        client.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}),
        );
    };
    change(&mut client, 2, text);
    client.write(
        json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 6}}}),
    );
    change(&mut client, 3, "claim 1 == 1;");
    change(&mut client, 4, "claim 2 == 2;");
    let mut versions = Vec::new();
    while versions.last() != Some(&4) {
        versions.push(client.published()["version"].as_i64().expect("a version"));
    }
    assert_eq!(versions, [2, 4]);
    assert_eq!(client.request("shutdown", Json::Null), Json::Null);
    client.notify("exit", Json::Null);
    assert_eq!(wait(&mut client.child), Some(0));
}

/// The words of a text: runs of letters, digits and underscores.
fn words(text: &str) -> std::collections::HashSet<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect()
}

/// The editor grammars and the server's completion name every word of the
/// language grammar and every built-in, so that adding one to the language
/// without adding it to them fails here.
#[test]
fn the_editor_grammars_know_every_keyword_and_builtin() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read = |path: &str| std::fs::read_to_string(root.join(path)).expect(path);
    let pest = read("grammar/game.pest");
    // The grammar's words: its quoted literals made of letters (read one
    // quote at a time, since literals such as "\"" upset any pairing).
    let keywords: std::collections::BTreeSet<&str> = pest
        .match_indices('"')
        .filter_map(|(i, _)| {
            let rest = &pest[i + 1..];
            let end = rest.find(|c: char| !c.is_ascii_lowercase())?;
            (end > 0 && rest[end..].starts_with('"')).then(|| &rest[..end])
        })
        .collect();
    for expected in ["game", "move", "claim", "octal", "not", "grid"] {
        assert!(
            keywords.contains(expected),
            "{expected} read from the grammar"
        );
    }
    let builtins: Vec<&str> = grundy::eval::builtins::Builtin::ALL
        .iter()
        .map(|b| b.name())
        .collect();
    let completion: std::collections::BTreeSet<&str> =
        grundy::lsp::KEYWORDS.iter().copied().collect();
    assert_eq!(completion, keywords, "the server's completion keywords");
    for file in [
        "editors/vscode/syntaxes/game.tmLanguage.json",
        "editors/vim/syntax/game.vim",
    ] {
        let text = read(file);
        let known = words(&text);
        for word in keywords.iter().chain(&builtins) {
            assert!(known.contains(word), "{file} does not name `{word}`");
        }
    }
}

/// Ctrl-C ends the server, with the status of an interrupted command, even
/// while its input stays open.
#[test]
fn ctrl_c_ends_the_server() {
    let interrupt = |client: &Client| {
        let killed = Command::new("kill")
            .args(["-INT", &client.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(killed.success());
    };
    // Waiting for a message.
    let mut client = Client::start();
    client.initialize();
    interrupt(&client);
    assert_eq!(wait(&mut client.child), Some(130));
    // In the middle of a claim that runs for its full 2 s.
    let mut client = Client::start();
    client.initialize();
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "game", "version": 1, "text": LONG}}),
    );
    std::thread::sleep(Duration::from_millis(800));
    interrupt(&client);
    assert_eq!(wait(&mut client.child), Some(130));
}
