module example.com/drillfixture

go 1.26.0
