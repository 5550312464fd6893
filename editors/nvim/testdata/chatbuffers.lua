-- The chat buffers of codecompanion.nvim and avante.nvim, made as those
-- plugins make them (their sources: codecompanion's
-- interactions/chat/init.lua and ui/init.lua, avante's sidebar.lua), with
-- an agent's answer streamed in: with their filetypes in answer_filetypes
-- and answerLanguages, Graft attaches to both and gives the finished
-- block its diagnostic, and the block being written none that is an error.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  local main = H.edit('main.txt')
  H.client(main)
  local answer = {
    'Rename gamma:',
    '',
    '```',
    'main.txt',
    '<<<<<<< SEARCH',
    'gamma',
    '=======',
    'GAMMA',
    '>>>>>>> REPLACE',
    '```',
  }

  -- codecompanion.nvim: a listed scratch buffer named "[CodeCompanion] N",
  -- its filetype set when its window opens; the reply is appended.
  local cc = vim.api.nvim_create_buf(true, true)
  vim.api.nvim_buf_set_name(cc, string.format('[CodeCompanion] %d', cc))
  vim.cmd('vsplit')
  vim.api.nvim_win_set_buf(0, cc)
  vim.bo[cc].filetype = 'codecompanion'
  H.client(cc)

  -- avante.nvim: its result sidebar, a scratch buffer, not modifiable,
  -- whose filetype is set on mount, before it has a name, and which is
  -- named AVANTE_RESULT when its window shows it; each render unlocks it,
  -- sets its lines and its filetype again, and locks it.
  local av = vim.api.nvim_create_buf(false, true)
  vim.bo[av].buftype = 'nofile'
  vim.bo[av].bufhidden = 'wipe'
  vim.bo[av].swapfile = false
  vim.bo[av].modifiable = false
  vim.bo[av].filetype = 'Avante'
  vim.cmd('split')
  vim.api.nvim_win_set_buf(0, av)
  vim.api.nvim_buf_set_name(av, 'AVANTE_RESULT')
  H.client(av)

  H.result.errors = {}
  local function seen(buf, n)
    for _, d in ipairs(H.diagnostics(buf)) do
      if d.severity == vim.diagnostic.severity.ERROR or d.severity == vim.diagnostic.severity.WARN then
        table.insert(H.result.errors, { buf = vim.bo[buf].filetype, after = n, message = d.message })
      end
    end
  end
  for n = 1, #answer do
    vim.api.nvim_buf_set_lines(cc, n == 1 and 0 or -1, -1, false, { answer[n] })
    vim.bo[av].modifiable = true
    vim.api.nvim_buf_set_lines(av, 0, -1, false, vim.list_slice(answer, 1, n))
    vim.bo[av].filetype = 'Avante'
    vim.bo[av].modifiable = false
    vim.wait(30)
    seen(cc, n)
    seen(av, n)
  end
  local function resolved(buf)
    local d = H.diagnostics(buf)
    return #d == 1 and d[1].code == 'exact'
  end
  H.wait(function() return resolved(cc) end, 'the block in the codecompanion chat to resolve')
  H.wait(function() return resolved(av) end, 'the block in the avante sidebar to resolve')
  H.result.codecompanion = H.diagnostics(cc)
  H.result.avante = H.diagnostics(av)
  H.result.main = H.lines(main)
end)
