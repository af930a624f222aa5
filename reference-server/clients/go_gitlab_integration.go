// A small integration driven with go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev), as an
// integrator's test would drive the reference server: creates a project, commits files on a new branch
// through the files API, lists branches, commits (with ref_name and path) and the tree, adds a member,
// then reads the server's request journal (GET /-/reference/requests) and checks that every request it
// made is there. Built by go-gitlab-integration.spec.ts in GOPATH mode (no network); run with GITLAB_URL
// and GITLAB_TOKEN (the administrator's). Prints one JSON line per check: {"form", "via", "ok", "detail"}.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"reflect"
	"strings"
	"time"

	gitlab "github.com/xanzy/go-gitlab"
)

var failures = 0

func check(form, via string, fn func() error) {
	err := fn()
	detail := ""
	if err != nil {
		failures++
		detail = err.Error()
	}
	line, _ := json.Marshal(map[string]interface{}{"form": form, "via": via, "ok": err == nil, "detail": detail})
	fmt.Println(string(line))
}

func main() {
	url := os.Getenv("GITLAB_URL")
	token := os.Getenv("GITLAB_TOKEN")
	git, err := gitlab.NewClient(token, gitlab.WithBaseURL(url+"/api/v4"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	suffix := fmt.Sprint(time.Now().UnixNano())
	var project *gitlab.Project

	check("create a project", "service", func() (err error) {
		project, _, err = git.Projects.CreateProject(&gitlab.CreateProjectOptions{Name: gitlab.String("go-integration-" + suffix), InitializeWithReadme: gitlab.Bool(true)})
		return err
	})
	if project == nil {
		os.Exit(1)
	}
	pid := project.ID

	check("commit files on a new branch", "service", func() error {
		if _, _, err := git.RepositoryFiles.CreateFile(pid, "src/main.go", &gitlab.CreateFileOptions{Branch: gitlab.String("feature"), StartBranch: gitlab.String("main"), Content: gitlab.String("package main\n"), CommitMessage: gitlab.String("Add main")}); err != nil {
			return err
		}
		if _, _, err := git.RepositoryFiles.CreateFile(pid, "docs/usage.md", &gitlab.CreateFileOptions{Branch: gitlab.String("feature"), Content: gitlab.String("# Usage\n"), CommitMessage: gitlab.String("Document it")}); err != nil {
			return err
		}
		_, _, err := git.RepositoryFiles.UpdateFile(pid, "src/main.go", &gitlab.UpdateFileOptions{Branch: gitlab.String("feature"), Content: gitlab.String("package main\n\nfunc main() {}\n"), CommitMessage: gitlab.String("Add func main")})
		return err
	})

	check("list and get branches", "service", func() error {
		branches, _, err := git.Branches.ListBranches(pid, &gitlab.ListBranchesOptions{})
		if err != nil {
			return err
		}
		names := []string{}
		for _, b := range branches {
			names = append(names, b.Name)
		}
		if !reflect.DeepEqual(names, []string{"feature", "main"}) {
			return fmt.Errorf("branches %v, wanted feature and main", names)
		}
		found, _, err := git.Branches.ListBranches(pid, &gitlab.ListBranchesOptions{Search: gitlab.String("feat")})
		if err != nil || len(found) != 1 || found[0].Name != "feature" {
			return fmt.Errorf("search=feat: %v %v", found, err)
		}
		feature, _, err := git.Branches.GetBranch(pid, "feature")
		if err != nil || feature.Commit.Title != "Add func main" {
			return fmt.Errorf("feature's head: %v %v", feature, err)
		}
		return nil
	})

	check("list and get commits", "service", func() error {
		onMain, _, err := git.Commits.ListCommits(pid, &gitlab.ListCommitsOptions{RefName: gitlab.String("feature"), Path: gitlab.String("src/main.go")})
		if err != nil {
			return err
		}
		titles := []string{}
		for _, c := range onMain {
			titles = append(titles, c.Title)
		}
		if !reflect.DeepEqual(titles, []string{"Add func main", "Add main"}) {
			return fmt.Errorf("commits on src/main.go: %v", titles)
		}
		commit, _, err := git.Commits.GetCommit(pid, onMain[0].ID)
		if err != nil {
			return err
		}
		if commit.Stats == nil || commit.Stats.Additions != 2 || commit.Stats.Total != 2 {
			return fmt.Errorf("stats of the last commit: %+v", commit.Stats)
		}
		return nil
	})

	check("list the tree", "service", func() error {
		tree, _, err := git.Repositories.ListTree(pid, &gitlab.ListTreeOptions{Ref: gitlab.String("feature"), Recursive: gitlab.Bool(true)})
		if err != nil {
			return err
		}
		paths := []string{}
		for _, n := range tree {
			paths = append(paths, n.Type+" "+n.Path)
		}
		want := []string{"tree docs", "tree src", "blob README.md", "blob docs/usage.md", "blob src/main.go"}
		if !reflect.DeepEqual(paths, want) {
			return fmt.Errorf("tree %v, wanted %v", paths, want)
		}
		return nil
	})

	check("add a member", "service", func() error {
		user, _, err := git.Users.CreateUser(&gitlab.CreateUserOptions{Username: gitlab.String("go-member-" + suffix), Name: gitlab.String("Member"), Email: gitlab.String("go-member-" + suffix + "@example.com"), Password: gitlab.String("Secret-12345")})
		if err != nil {
			return err
		}
		_, _, err = git.ProjectMembers.AddProjectMember(pid, &gitlab.AddProjectMemberOptions{UserID: user.ID, AccessLevel: gitlab.AccessLevel(gitlab.DeveloperPermissions)})
		return err
	})

	check("the journal holds every request", "journal", func() error {
		request, _ := http.NewRequest("GET", url+"/-/reference/requests?path=/api/v4/projects", nil)
		request.Header.Set("PRIVATE-TOKEN", token)
		response, err := http.DefaultClient.Do(request)
		if err != nil {
			return err
		}
		defer response.Body.Close()
		var entries []struct {
			Method string                 `json:"method"`
			Route  string                 `json:"route"`
			Status int                    `json:"status"`
			Query  map[string]interface{} `json:"query"`
		}
		if err := json.NewDecoder(response.Body).Decode(&entries); err != nil {
			return fmt.Errorf("GET /-/reference/requests answered %d: %v", response.StatusCode, err)
		}
		seen := map[string]bool{}
		for _, e := range entries {
			if e.Status >= 200 && e.Status < 300 {
				seen[e.Method+" "+e.Route] = true
			}
			if e.Route == "/api/v4/projects/:id/repository/commits" && e.Query["ref_name"] == "feature" && e.Query["path"] == "src/main.go" {
				seen["commits with ref_name and path"] = true
			}
		}
		missing := []string{}
		for _, want := range []string{
			"POST /api/v4/projects", "POST /api/v4/projects/:id/repository/files/:file_path", "PUT /api/v4/projects/:id/repository/files/:file_path",
			"GET /api/v4/projects/:id/repository/branches", "GET /api/v4/projects/:id/repository/branches/:branch",
			"GET /api/v4/projects/:id/repository/commits", "GET /api/v4/projects/:id/repository/commits/:sha",
			"GET /api/v4/projects/:id/repository/tree", "POST /api/v4/projects/:id/members", "commits with ref_name and path",
		} {
			if !seen[want] {
				missing = append(missing, want)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("not in the journal (with a 2xx status): %s", strings.Join(missing, "; "))
		}
		return nil
	})

	if failures > 0 {
		os.Exit(1)
	}
}
