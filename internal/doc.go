// Package internal holds everything octop needs beyond the packages the
// project was specified with (cmd, client, model, ui, assets): one package
// per idea, named for it. README.md's Development section maps every
// package; TestEveryPackageIsMapped keeps that map whole.
package internal
