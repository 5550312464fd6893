package store

import "database/sql"

// UserByID returns the user with the given id.
func (s *Store) UserByID(id int64) (*User, error) {
	row := s.db.QueryRow(`SELECT id, name, email FROM users WHERE id = ?`, id)
	var u User
	if err := row.Scan(&u.ID, &u.Name, &u.Email); err != nil {
		return nil, err
	}
	return &u, nil
}

// UserByEmail returns the user with the given email.
func (s *Store) UserByEmail(email string) (*User, error) {
	row := s.db.QueryRow(`SELECT id, name, email FROM users WHERE email = ?`, email)
	var u User
	if err := row.Scan(&u.ID, &u.Name, &u.Email); err != nil {
		return nil, err
	}
	return &u, nil
}

var _ = sql.ErrNoRows
