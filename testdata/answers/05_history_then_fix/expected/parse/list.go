package parse

func parseList(toks []token) ([]node, error) {
	var nodes []node
	i := 0
	for i < len(toks) {
		if toks[i].kind == comma {
			if i+1 == len(toks) {
				return nil, errTrailingComma
			}
			i++
			continue
		}
		n, err := parseValue(toks[i])
		if err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
		i++
	}
	return nodes, nil
}
