// Starts `grundy lsp` for .game files and connects it to the editor.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("grundy").get("path") || "grundy";
  const server = { command, args: ["lsp"] };
  client = new LanguageClient(
    "grundy",
    "grundy",
    { run: server, debug: server },
    { documentSelector: [{ scheme: "file", language: "game" }] }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
