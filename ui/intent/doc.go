// Package intent is the vocabulary the rooms and the root share: the
// Dialog contract every overlay meets, the intents a room returns when it
// wants the server to do something (LaunchRequested, AbortRequested,
// AnswerPermission…), the replies the root hands back, and the plain
// result types those replies carry. It has no behaviour and imports no
// network code, so any room may use it.
package intent
