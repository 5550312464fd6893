// Package testenv is what the end-to-end tests need of their
// environment: the graft binary built from this module (Build), a private
// state directory for the processes they start (RunPrivateState), npm
// packages installed once (NPMInstall), txtar workspaces (WriteTxtar) and
// latency metrics for benchmarks (ReportLatency).
package testenv
