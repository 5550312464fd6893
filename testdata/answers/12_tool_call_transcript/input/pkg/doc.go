// Package pkg holds small helpers.
package pkg
