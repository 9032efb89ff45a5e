// Package inbox is the `i` room: every pending permission and question
// across the tree, in tree order, answered with a key (allow, deny, pick
// an option, type an answer). It reads the live model.State at each frame,
// keeps its own bookkeeping (what was sent, drafts, picks, the typed
// answer) and returns requests (AnswerPermissionRequest, AnswerQuestionRequest,
// RejectQuestion) for the root to send; an answered item leaves when the
// server's event says so.
package inbox
