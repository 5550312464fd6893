-- :checkhealth graft with no graft binary says so, and the exact steps
-- that fix it.
local H = dofile(os.getenv('GRAFT_NVIM_HELPERS'))
H.scenario(function()
  vim.cmd('checkhealth graft')
  H.result.health = H.lines(vim.api.nvim_get_current_buf())
end)
