@echo off
set OUT=dist
ruby build.rb %OUT%
