-- :checkhealth graft: the binary, its version, the server starting, the root.
local M = {}

-- reporter returns the health functions of this Neovim: vim.health.start/ok/
-- warn/error (0.9+), else the report_* ones of 0.7 and 0.8.
local function reporter()
  local h = vim.health
  if h and h.start then
    return { start = h.start, ok = h.ok, warn = h.warn, error = h.error, info = h.info }
  end
  h = h or require('health')
  return {
    start = h.report_start,
    ok = h.report_ok,
    warn = h.report_warn,
    error = h.report_error,
    info = h.report_info,
  }
end

-- missing_binary says that exe is not there and the exact steps that fix it.
local function missing_binary(r, exe, enabled)
  local where = exe:find('/') and 'not an executable file' or 'not on $PATH'
  local advice = {}
  local function set_cmd(path)
    local cmd = vim.inspect({ path, 'serve' })
    if enabled then
      return "vim.lsp.config('graft', { cmd = " .. cmd .. ' })'
    end
    return "require('graft').setup({ cmd = " .. cmd .. ' })'
  end
  local setup = enabled and "vim.lsp.config('graft')" or 'setup()'
  local root = require('graft').clone()
  if root and vim.fn.executable(root .. '/bin/graft') == 1 then
    table.insert(advice, 'the plugin\'s clone has one, ' .. root .. '/bin/graft: leave cmd out of ' .. setup .. ' to run it, or set ' .. set_cmd(root .. '/bin/graft'))
  elseif root then
    table.insert(advice, 'build it in the plugin\'s clone: cd ' .. vim.fn.shellescape(root) .. ' && go build -o bin/graft ./cmd/graft')
    table.insert(advice, 'then restart Neovim: with no cmd, ' .. setup .. ' runs it; with a cmd of your own, set ' .. set_cmd(root .. '/bin/graft'))
  end
  table.insert(advice, (root and 'or ' or '') .. 'install it on $PATH: go install github.com/graft-editor/graft/cmd/graft@latest (it goes to $(go env GOPATH)/bin, ~/go/bin by default)')
  if vim.fn.executable('go') ~= 1 then
    table.insert(advice, 'both need Go, which is not on $PATH either: install Go at the version the clone\'s go.mod names')
  end
  r.error('graft binary not found: ' .. exe .. ' is ' .. where, advice)
end

function M.check()
  local r = reporter()
  local graft = require('graft')
  local cmd = graft.cmd()
  local enabled = vim.lsp.is_enabled and vim.lsp.is_enabled('graft')
  r.start('graft')

  if vim.fn.has('nvim-0.7') == 1 then
    r.ok('Neovim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.' .. tostring(vim.version().patch))
  else
    r.error('Neovim 0.7 or later is needed')
  end

  local exe = cmd[1]
  if vim.fn.executable(exe) ~= 1 then
    missing_binary(r, exe, enabled)
    return
  end
  local version = vim.fn.system({ exe, 'version' })
  if vim.v.shell_error ~= 0 then
    r.error('`' .. exe .. ' version` failed: ' .. version)
    return
  end
  r.ok('graft binary: ' .. vim.fn.exepath(exe) .. ' (' .. vim.trim(version) .. ')')

  local alt = vim.fn.bufnr('#')
  local name = alt > 0 and vim.api.nvim_buf_get_name(alt) or ''
  local from = (name ~= '' and not name:match('^%a+://')) and vim.fn.fnamemodify(name, ':h') or (vim.uv or vim.loop).cwd()
  local root = graft.find_root(from)
  if root then
    r.ok('workspace root: ' .. root .. ' (markers: ' .. table.concat(graft.config.root_markers, ', ') .. ')')
  else
    root = (vim.uv or vim.loop).cwd()
    r.warn('no root marker (' .. table.concat(graft.config.root_markers, ', ') .. ') above ' .. from .. '; the current directory is the root: ' .. root)
  end

  local client = graft.start(root)
  if not client then
    r.error('the server did not start: ' .. table.concat(cmd, ' '))
    return
  end
  local ready = vim.wait(10000, function()
    return client.initialized == true or graft._is_stopped(client)
  end, 20)
  if ready and client.initialized then
    r.ok('server running: client ' .. client.id .. ', ' .. table.concat(cmd, ' '))
  else
    r.error('the server did not initialize; see ' .. graft.log_path())
  end
end

return M
