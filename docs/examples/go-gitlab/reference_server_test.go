// go-gitlab against the reference server: TestMain starts it once with a seed and stops it, each
// test resets it to the seeded state first.
//
//	GITLAB_REFERENCE_SERVER="npx gitlab-reference-server" go test ./docs/examples/go-gitlab
package example

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/xanzy/go-gitlab"
)

const adminToken = "glpat-example-admin-00001"

var baseURL string

func TestMain(m *testing.M) {
	command := strings.Fields(os.Getenv("GITLAB_REFERENCE_SERVER"))
	if len(command) == 0 {
		command = []string{"npx", "gitlab-reference-server"}
	}
	args := append(command[1:], "--port", "0", "--admin-token", adminToken, "--seed", "../seed.yaml")
	server := exec.Command(command[0], args...)
	stdout, _ := server.StdoutPipe()
	if err := server.Start(); err != nil {
		panic(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	baseURL = regexp.MustCompile(`listening on (\S+)`).FindStringSubmatch(line)[1]
	code := m.Run()
	server.Process.Signal(os.Interrupt)
	server.Wait()
	os.Exit(code)
}

// client resets the server to its seed and returns a client as the administrator.
func client(t *testing.T) *gitlab.Client {
	request, _ := http.NewRequest("POST", baseURL+"/-/reference/reset", nil)
	request.Header.Set("PRIVATE-TOKEN", adminToken)
	response, err := http.DefaultClient.Do(request)
	if err != nil || response.StatusCode != 204 {
		t.Fatalf("reset: %v %v", err, response)
	}
	gl, err := gitlab.NewClient(adminToken, gitlab.WithBaseURL(baseURL+"/api/v4"))
	if err != nil {
		t.Fatal(err)
	}
	return gl
}

func members(t *testing.T, gl *gitlab.Client) []string {
	list, _, err := gl.Groups.ListGroupMembers("demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, m := range list {
		names = append(names, m.Username)
	}
	return names
}

func TestReadsTheSeededProject(t *testing.T) {
	gl := client(t)
	raw, _, err := gl.RepositoryFiles.GetRawFile("demo/app", "README.md", &gitlab.GetRawFileOptions{Ref: gitlab.String("main")})
	if err != nil || string(raw) != "# app\n" {
		t.Fatalf("README.md: %q %v", raw, err)
	}
	if got := members(t, gl); len(got) != 1 || got[0] != "alice" {
		t.Fatalf("members: %v", got)
	}
}

func TestChangesStayInTheirTest(t *testing.T) {
	gl := client(t)
	users, _, _ := gl.Users.ListUsers(&gitlab.ListUsersOptions{Username: gitlab.String("alice")})
	if _, err := gl.GroupMembers.RemoveGroupMember("demo", users[0].ID, nil); err != nil {
		t.Fatal(err)
	}
	if got := members(t, gl); len(got) != 0 {
		t.Fatalf("members after removal: %v", got)
	}
}

func TestTheNextTestStartsFromTheSeed(t *testing.T) {
	gl := client(t)
	if got := members(t, gl); len(got) != 1 || got[0] != "alice" {
		t.Fatalf("members after reset: %v", got)
	}
}
