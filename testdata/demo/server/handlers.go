// Package server serves the user API over HTTP.
package server

import (
	"encoding/json"
	"log"
	"net/http"
	"strconv"
)

// A User is one account as the API shows it.
type User struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// Store is what the handlers need from the database.
type Store interface {
	User(id int) (*User, error)
	Users(limit int) ([]User, error)
}

// Handler serves the user API.
type Handler struct {
	store Store
	log   *log.Logger
}

// NewHandler returns a Handler backed by store.
func NewHandler(store Store, logger *log.Logger) *Handler {
	return &Handler{store: store, log: logger}
}

// GetUser serves GET /users/{id}.
func (h *Handler) GetUser(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.Atoi(r.PathValue("id"))
	if err != nil {
		http.Error(w, "invalid user id", http.StatusBadRequest)
		return
	}
	user, err := h.store.User(id)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if user == nil {
		http.Error(w, "user not found", http.StatusNotFound)
		return
	}
	writeJSON(w, user)
}

// ListUsers serves GET /users?limit=N.
func (h *Handler) ListUsers(w http.ResponseWriter, r *http.Request) {
	limit := 50
	if s := r.URL.Query().Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			http.Error(w, "invalid limit", http.StatusBadRequest)
			return
		}
		limit = n
	}
	users, err := h.store.Users(limit)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	writeJSON(w, users)
}

// writeJSON writes v as the JSON body of the response.
func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(v); err != nil {
		log.Printf("write response: %v", err)
	}
}
