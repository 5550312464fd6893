package main

import (
	"flag"
	"fmt"
	"os"

	"example.com/tool/internal/config"
)

func main() {
	path := flag.String("config", "tool.json", "config file")
	flag.Parse()

	cfg, err := config.Load(*path)
	if err != nil {
		fmt.Println(err)
		os.Exit(1)
	}

	for _, name := range cfg.Targets {
		fmt.Println("building", name)
	}
}
