//! The MCP server: `initialize`, `tools/list` and `tools/call` over stdio.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use session_state::{Error, ErrorKind, Result};

use super::Roots;
use super::tools::{self, Tools};

const INSTRUCTIONS: &str = "\
Session state of one project: the orchestrator session (call `resume` first: it answers the \
RESUMING SESSION summary, or not_found when there is nothing to resume), the sub-agent registry \
and the team spawn state. Each tool is the `session-state` CLI verb of the same name. A failed \
call is a tool error whose structured content has the error kind `code` and the `message`.";

#[derive(Clone, Debug)]
struct Server {
    roots: Arc<Roots>,
    tools: Arc<Tools>,
    /// Held by the tool call that runs: calls sent at once (parallel tool calls of one model
    /// turn) run one at a time, in the order they came (the runtime has one thread, which
    /// starts each request's handling in arrival order, and the lock queues fairly).
    turn: Arc<tokio::sync::Mutex<()>>,
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                "session-state",
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> std::result::Result<CallToolResponse, ErrorData> {
        let _turn = self.turn.lock().await;
        let (roots, table) = (self.roots.clone(), self.tools.clone());
        let name = request.name.into_owned();
        let args = request.arguments.unwrap_or_default();
        // The core's calls block on file locks and I/O: off the transport's thread. Once started
        // a call runs to its end even if the client goes away (the runtime waits for it).
        let call = tokio::task::spawn_blocking(move || table.call(&roots, &name, args));
        match call.await {
            Ok(result) => Ok(result.into()),
            Err(e) => Err(ErrorData::internal_error(
                format!("the tool call stopped: {e}"),
                None,
            )),
        }
    }
}

/// Serves `roots` on stdin/stdout until the client closes the connection.
pub fn serve(roots: Roots) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .map_err(|e| storage("cannot start the server", &e))?;
    let line_limit = super::limits::line_limit(roots.project.max_bytes);
    let server = Server {
        roots: Arc::new(roots),
        tools: tools::all(),
        turn: Arc::default(),
    };
    runtime.block_on(async move {
        let transport = AsyncRwTransport::new_server(tokio::io::stdin(), tokio::io::stdout())
            .with_max_line_length(line_limit);
        let running = server
            .serve(transport)
            .await
            .map_err(|e| storage("the MCP connection failed", &e))?;
        running
            .waiting()
            .await
            .map_err(|e| storage("the MCP server stopped", &e))?;
        Ok(())
    })
}

fn storage(what: &str, e: &dyn std::fmt::Display) -> Error {
    Error::new(ErrorKind::Storage, format!("{what}: {e}"))
}
