-- With setup({ codelens = false }) the plugin shows no code lens, though
-- the server has them for the answer buffer.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local target = H.edit('main.txt')
  H.client(target)
  local answer = H.edit('answer.md')
  H.client(answer)
  H.wait(function()
    return #vim.diagnostic.get(answer) >= 2
  end, 'diagnostics on the answer buffer')
  for _, event in ipairs({ 'BufEnter', 'CursorHold', 'InsertLeave' }) do
    vim.cmd('doautocmd ' .. event)
  end
  local params = { textDocument = { uri = vim.uri_from_bufnr(answer) } }
  local replies = vim.lsp.buf_request_sync(answer, 'textDocument/codeLens', params, H.timeout) or {}
  H.result.server = 0
  for _, reply in pairs(replies) do
    H.result.server = H.result.server + #(reply.result or {})
  end
  H.result.shown = H.lenses(answer)
end)
