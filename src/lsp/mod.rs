//! `grundy lsp`: a language server on standard input and output, for the
//! editors that speak the Language Server Protocol.
//!
//! Built on `lsp-server` and `lsp-types`, the pair rust-analyzer is built
//! on: a synchronous loop over a channel of messages, with no async
//! runtime. That suits this server: every answer is computed by the same
//! single-threaded session the command line uses, within small time and
//! position limits, so an async runtime such as the one `tower-lsp` needs
//! would add threads and dependencies and buy nothing.
//!
//! Documents are synchronised whole (each change sends the full text) and
//! analysed again at once: parsed, checked and their claims run, so the
//! diagnostics are those of `grundy check`.

mod analysis;
mod completion;
mod diagnostics;
mod files;
mod hover;
mod lens;
mod navigate;
mod symbols;
mod text;

pub use completion::KEYWORDS;

use analysis::Analysis;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
    Notification as NotificationKind, PublishDiagnostics,
};
use lsp_types::request::{
    CodeLensRequest, Completion, GotoDefinition, HoverRequest, Request as RequestKind,
};
use lsp_types::{
    CodeLensOptions, CompletionOptions, CompletionResponse, GotoDefinitionResponse, Hover,
    HoverContents, HoverProviderCapability, MarkupContent, MarkupKind, OneOf,
    PublishDiagnosticsParams, ServerCapabilities, TextDocumentPositionParams,
    TextDocumentSyncCapability, TextDocumentSyncKind, Uri,
};
use std::collections::HashMap;

/// Serves one client until it says `exit`, closes the connection or
/// Ctrl-C is pressed; the process exit status.
pub fn run() -> i32 {
    let (connection, io_threads) = Connection::stdio();
    let capabilities = ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        completion_provider: Some(CompletionOptions::default()),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        code_lens_provider: Some(CodeLensOptions {
            resolve_provider: Some(false),
        }),
        ..ServerCapabilities::default()
    };
    let running = || !crate::interrupt::requested();
    let ending = serde_json::to_value(capabilities)
        .map_err(|e| e.to_string())
        .and_then(|caps| {
            connection
                .initialize_while(caps, running)
                .map_err(|e| e.to_string())
        })
        .and_then(|_| Server::default().serve(&connection));
    if !running() {
        // The thread reading standard input may wait on it for ever: the
        // process ends without it.
        eprintln!("grundy lsp: interrupted");
        return 130;
    }
    drop(connection);
    match ending.and(io_threads.join().map_err(|e| e.to_string())) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("grundy lsp: {e}");
            1
        }
    }
}

/// How often Ctrl-C is looked for while no message comes.
const POLL: std::time::Duration = std::time::Duration::from_millis(250);
/// How long the typing must pause before a changed text is analysed.
const QUIET: std::time::Duration = std::time::Duration::from_millis(100);

#[derive(Default)]
struct Server {
    documents: HashMap<Uri, Analysis>,
    /// Texts received but not yet analysed, with their versions: while an
    /// editor sends change after change, only the last is analysed.
    pending: HashMap<Uri, (i32, String)>,
}

impl Server {
    fn serve(&mut self, connection: &Connection) -> Result<(), String> {
        loop {
            // A changed text waits for a pause in the typing, or for a
            // question about it, before it is analysed.
            let wait = if self.pending.is_empty() { POLL } else { QUIET };
            let message = match connection.receiver.recv_timeout(wait) {
                Ok(message) => message,
                Err(e) if e.is_timeout() => {
                    if crate::interrupt::requested() {
                        return Err("interrupted".into());
                    }
                    self.analyse_pending(connection)?;
                    continue;
                }
                Err(_) => return Ok(()),
            };
            match message {
                Message::Request(request) => {
                    if connection
                        .handle_shutdown(&request)
                        .map_err(|e| e.to_string())?
                    {
                        return Ok(());
                    }
                    // A question is answered about the latest text.
                    self.analyse_pending(connection)?;
                    let response = self.answer(request);
                    send(connection, response.into())?;
                }
                Message::Notification(note) if note.method == "exit" => {
                    return Err("exit before shutdown".into())
                }
                Message::Notification(note) => {
                    if let Some(published) = self.notice(note) {
                        send(connection, published.into())?;
                    }
                }
                Message::Response(_) => {}
            }
        }
    }

    /// Analyses the texts received since the last analysis and publishes
    /// their diagnostics.
    fn analyse_pending(&mut self, connection: &Connection) -> Result<(), String> {
        for (uri, (version, text)) in std::mem::take(&mut self.pending) {
            let analysis = Analysis::new(&files::path_of(&uri), text);
            let diagnostics = diagnostics::of(&analysis, &uri);
            self.documents.insert(uri.clone(), analysis);
            send(connection, publish(uri, diagnostics, Some(version)).into())?;
        }
        Ok(())
    }

    fn answer(&mut self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            Completion::METHOD => {
                params::<Completion>(request).map(|p| self.complete(&p.text_document_position))
            }
            HoverRequest::METHOD => params::<HoverRequest>(request)
                .map(|p| serde_json::json!(self.hover(&p.text_document_position_params))),
            GotoDefinition::METHOD => params::<GotoDefinition>(request)
                .map(|p| serde_json::json!(self.definition(&p.text_document_position_params))),
            CodeLensRequest::METHOD => params::<CodeLensRequest>(request)
                .map(|p| serde_json::json!(self.documents.get(&p.text_document.uri).map(lens::of))),
            _ => Err(Box::new(Response::new_err(
                id.clone(),
                ErrorCode::MethodNotFound as i32,
                format!("grundy lsp does not answer {}", request.method),
            ))),
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(response) => *response,
        }
    }

    /// A document opened or changed is kept to be analysed; a closed one is
    /// forgotten, and its diagnostics cleared.
    fn notice(&mut self, note: Notification) -> Option<Notification> {
        let (uri, version, text) = match note.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let p: lsp_types::DidOpenTextDocumentParams =
                    serde_json::from_value(note.params).ok()?;
                (
                    p.text_document.uri,
                    p.text_document.version,
                    p.text_document.text,
                )
            }
            DidChangeTextDocument::METHOD => {
                let p: lsp_types::DidChangeTextDocumentParams =
                    serde_json::from_value(note.params).ok()?;
                let text = p.content_changes.into_iter().last()?.text;
                (p.text_document.uri, p.text_document.version, text)
            }
            DidCloseTextDocument::METHOD => {
                let p: lsp_types::DidCloseTextDocumentParams =
                    serde_json::from_value(note.params).ok()?;
                self.documents.remove(&p.text_document.uri);
                self.pending.remove(&p.text_document.uri);
                return Some(publish(p.text_document.uri, Vec::new(), None));
            }
            _ => return None,
        };
        self.pending.insert(uri, (version, text));
        None
    }

    fn located(&mut self, at: &TextDocumentPositionParams) -> Option<(&mut Analysis, usize)> {
        let analysis = self.documents.get_mut(&at.text_document.uri)?;
        let offset = analysis.lines.offset(&analysis.text, at.position);
        Some((analysis, offset))
    }

    fn complete(&mut self, at: &TextDocumentPositionParams) -> serde_json::Value {
        let items = self
            .located(at)
            .map(|(analysis, offset)| completion::items(analysis, offset))
            .unwrap_or_default();
        serde_json::json!(CompletionResponse::Array(items))
    }

    fn hover(&mut self, at: &TextDocumentPositionParams) -> Option<Hover> {
        let (analysis, offset) = self.located(at)?;
        let (markdown, start, end) = hover::at(analysis, offset)?;
        Some(Hover {
            contents: HoverContents::Markup(MarkupContent {
                kind: MarkupKind::Markdown,
                value: markdown,
            }),
            range: Some(analysis.lines.range(&analysis.text, start, end)),
        })
    }

    fn definition(&mut self, at: &TextDocumentPositionParams) -> Option<GotoDefinitionResponse> {
        let uri = at.text_document.uri.clone();
        let (analysis, offset) = self.located(at)?;
        navigate::definition(analysis, &uri, offset).map(GotoDefinitionResponse::Scalar)
    }
}

/// The parameters of a request of kind `R`, or the error response that
/// says they could not be read.
fn params<R: RequestKind>(request: Request) -> Result<R::Params, Box<Response>> {
    let id = request.id.clone();
    request
        .extract::<R::Params>(R::METHOD)
        .map(|(_, p)| p)
        .map_err(|e| {
            Box::new(Response::new_err(
                id,
                ErrorCode::InvalidParams as i32,
                format!("{e:?}"),
            ))
        })
}

fn publish(
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    )
}

fn send(connection: &Connection, message: Message) -> Result<(), String> {
    connection.sender.send(message).map_err(|e| e.to_string())
}
