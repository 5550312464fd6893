// Package pkg holds small helpers: Retry, with exponential backoff.
package pkg
