module example.com/mutatefixture

go 1.26.0
