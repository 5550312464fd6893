// Package config reads the tool's configuration.
package config

import (
	"encoding/json"
	"os"
)

// Config is the tool's configuration.
type Config struct {
	Targets []string `json:"targets"`
	Jobs    int      `json:"jobs"`
}

// Load reads the configuration in path.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var cfg Config
	if err := json.Unmarshal(data, &cfg); err != nil {
		return nil, err
	}
	return &cfg, nil
}
