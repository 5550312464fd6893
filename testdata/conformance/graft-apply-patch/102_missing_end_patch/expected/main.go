package main

func main() {
	run(context.Background())
}
