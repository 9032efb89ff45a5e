// Package fakellm is a scripted fake LLM: an OpenAI-compatible
// `POST /v1/chat/completions` server that streams `chat.completion.chunk`
// SSE and a final `data: [DONE]`, so a real `opencode serve` can run
// subagents with no model account. New returns an http.Handler for
// httptest; `go run ./internal/dev/fakellm -addr 127.0.0.1:PORT` serves it
// standalone. Point an OpenCode provider (npm @ai-sdk/openai-compatible) at
// http://ADDR/v1 (the harness package does this).
//
// # Stateless turns
//
// The fake keeps no state between requests. Each request carries the whole
// conversation, and the fake reads:
//
//   - the script: the last user message that contains a scenario keyword.
//     A root session's script is its prompt; a child's is the prompt its
//     parent gave the task tool (tool results are tool messages, not user
//     ones, so they never replace it);
//   - the turn: how many assistant messages follow that user message
//     (0 on the first call, 1 after the first round of tool results, …);
//   - the tools offered (tools[].function.name). A request with no tools
//     is OpenCode's title generator and gets a title (see Title):
//     "Octop <keyword in lower case> run", or "Octop session".
//
// # Grammar
//
// A script is a KEYWORD followed by key=value parameters, anywhere in the
// user text (the first keyword wins; words before it are ignored). A value
// is a bare word or a Go double-quoted string, so scripts nest:
//
//	FANOUT k=2 child="FANOUT k=1 child=\"LEAF steps=1\""
//
// Durations are seconds ("0.5"). Unknown keys are ignored. Text with no
// keyword gets NoScenarioText. A scenario whose tool is not offered (for
// example FANOUT in an agent without task) answers
// "<KEYWORD> needs the <tool> tool, which this agent lacks".
//
// # Scenarios
//
// FANOUT k=3 agent=general child="LEAF steps=2 sleep=0.5" desc=worker
// [childN=…] [agentN=…] [descN=…]
//
//	Turn 0: the text "Fanning out to k workers." and k task calls in one
//	message; call i (1-based) has description descN or "<desc> i", prompt
//	childN or child, subagent_type agentN or agent. OpenCode runs them in parallel.
//	Then: "fanout finished: k tasks returned".
//
//	background=true|false (or backgroundN=… for call i) adds the task
//	tool's "background" argument. OpenCode 1.18 honours true only with
//	OPENCODE_EXPERIMENTAL_BACKGROUND_SUBAGENTS=1 in the server's
//	environment (harness.Config.Env); without it the call ends in the
//	error "Background subagents require …", and 1.1.65 ignores the key
//	(runs the task in the foreground). A background call returns at once
//	(output <task id="ses_…" state="running">…), so the answer after the
//	tool results is then "fanout started: k background tasks".
//
// # Background end notices
//
// When a background child ends, OpenCode 1.18 adds a user message to the
// parent (its text part synthetic: true) and runs the parent again, once
// per child:
//
//	<task id="ses_…" state="completed">
//	<summary>Background task completed: <description></summary>
//	<task_result>
//	<the child's last text>
//	</task_result>
//	</task>
//
// (state="error", "Background task failed: …" and <task_error> when the
// child's run failed; an aborted child gets no notice at all.) Whatever the
// scenario, when the conversation's last message is such a notice the fake
// answers NoticeText: "noticed task <id> <state>", with no tool call, so
// the parent goes idle again. A notice never counts as a script, even when
// the child's answer inside it names a keyword.
//
// LEAF steps=2 sleep=0.5
//
//	Turns 0…steps-1: one bash call each, command "sleep <sleep>; echo step
//	<i>", description "step <i>" (i from 1). Then: "leaf finished after
//	<steps> steps".
//
// NESTED k=1 agent=deep kids=2 leafagent=general leaf="LEAF steps=1 sleep=0.5"
//
//	Turn 0: "Delegating to k mid-level agents." and k task calls
//	(description "mid i") to agent, each with the prompt
//	`FANOUT k=<kids> agent=<leafagent> desc=leaf child="<leaf>"`, so each
//	mid-level child fans out to grandchildren ("leaf 1", "leaf 2", …).
//	The mid-level agent must be allowed the task tool: the harness
//	defines agent "deep" with permission {task: allow} (and, on 1.18,
//	subagent_depth). Then: "nested finished: k tasks returned".
//
// FAIL how=read path=octop-missing/does-not-exist.txt times=1
//
//	Turns 0…times-1: "Reading a file that is not there." and a read call
//	of path (from turn 1 on, path.<turn+1>, so the calls differ);
//	OpenCode reports the tool part with state.status "error" and
//	state.error "File not found: <abs path>". how=bash instead runs a
//	command that exits 3: OpenCode reports that as "completed" with
//	metadata.exit 3, not as an error. Then: "fail finished: the tool
//	failed as planned".
//
// BIG bytes=5000000 via=write path=octop-big.txt
//
//	Turn 0: a write call whose content is BigContent(bytes), so the tool
//	part's state.input.content (in message.part.updated events and in GET
//	/session/{id}/message) is bytes long. OpenCode cuts every tool's
//	output to a few tens of kilobytes (bash, task, …: verified on 1.18.33), so a large
//	output cannot reach the stream whole; a large input can. Other ways:
//	via=bash prints the bytes with bash (the output arrives cut);
//	via=text answers BigContent(bytes) as text (a message.part.delta and a
//	text part of that size); via=task delegates "BIG via=text" to a child
//	(agent=general), whose answer comes back cut as the task's output.
//	Then: "big finished: <bytes> bytes". OpenCode refuses to overwrite a
//	file the session has not read (the write ends in "error"), so give
//	each BIG on a long-lived server its own path=.
//
// RUNAWAY sleep=1 max=100000
//
//	Every turn: one bash call "sleep <sleep>; echo tick <i>", until the
//	session is aborted (or max turns: "runaway finished after <max> steps").
//
// LOOP max=100000 cmd="sleep 0.2; echo same again"
//
//	Every turn: the same bash call, command cmd and description "look
//	again", until the session is aborted or max turns: then "loop
//	finished after <max> calls". The watchdog's loop detector's prey.
//
// HANG secs=10
//
//	Turn 0: says nothing for secs seconds (the response headers are sent,
//	no chunk), then answers "hang finished after <secs>s". A stall: busy,
//	silent, no tool running.
//
// SLOW words=20 delay=0.2
//
//	Turn 0: the text "word1 word2 … word<words>", one word per chunk,
//	delay seconds apart. That is also the final text.
//
// QUESTION text="Which database should the config loader use?"
//
//	Turn 0: a question tool call (header "Database", options "sqlite" and
//	"postgres"); the session waits in GET /question until it is answered
//	or rejected. Then: "question finished". Permission asks come from the
//	config instead: harness.Config{Extra: {"permission": {"*": "allow",
//	"bash": "ask"}}} makes every bash call of LEAF ask.
//
// ERROR steps=0 sleep=0.5 status=400 msg="fakellm: refused on purpose"
//
//	Turns 0…steps-1: one bash call each, as LEAF. Then: the HTTP status
//	with an OpenAI-style error body whose message is msg instead of a
//	completion. A 4xx other than 408, 409 and 429 is not retried: the run
//	ends in an error (APIError) on the session's last message, a failed
//	session. 429 and 5xx make OpenCode retry.
//
// CALL tool=bash args="{…json…}"
//
//	Turn 0: one call of tool with the given JSON arguments (for tools the
//	other scenarios do not cover, e.g. question). Then: "call finished:
//	<tool>".
//
// STEER steps=30 sleep=0.5
//
//	Turns 0…steps-1: one bash call each, as LEAF, until a user message
//	without a keyword follows the script (octop say to a running
//	session): then the answer HeardText(it), "heard: <its words>", with
//	no call, so the run ends there. 1.1.65 frames such a message in a
//	<system-reminder> the first time it shows it; the fake reads through
//	it. Never told anything: "steer finished after <steps> steps, heard
//	nothing".
//
// EDIT path=octop-edit.txt steps=3 sleep=0.5 via=write tag=<path>
//
//	Turns 0…steps-1: first sleep seconds of silence (the step has begun,
//	so OpenCode's step snapshot is taken before the change), then one
//	call that makes the file lines 1…turn+1, each "<tag> line <n>":
//	via=write rewrites the whole file (EditContent); via=edit writes line
//	1, then an edit call adds each next line after the one before;
//	via=bash appends the line with `echo "<tag> line <n>" >> "<path>"`.
//	Then: "edit finished: <path> after <steps> steps". A fan-out of EDIT
//	children changes files at the same time, as real ones do:
//	FANOUT k=2 child1="EDIT path=out-w0.txt" child2="EDIT path=out-w1.txt via=bash";
//	two sessions appending to one file (via=bash, tags apart) touch the
//	same file.
//
// FinalText(ParseScript(prompt)) gives each scenario's last answer.
//
// # Wire format
//
// A streamed answer is a role chunk, one chunk per word of text, one chunk
// per tool call (id "call_<completion id>_<i>", type "function", the whole
// arguments JSON in function.arguments), then a chunk with finish_reason
// "stop" or "tool_calls" and a usage block, then "data: [DONE]". A request
// with "stream": false gets one chat.completion object.
package fakellm
