module github.com/octop-dev/octop

go 1.26.8
