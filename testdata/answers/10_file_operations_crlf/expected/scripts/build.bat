@echo off
set OUT=dist
set VERSION=2.1.0
ruby build.rb %OUT% %VERSION%
