<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="ko_KR">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="22" />
        <source>Inspect</source>
        <translation>검사</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="23" />
        <source>Train</source>
        <translation>학습</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="24" />
        <source>Compare</source>
        <translation>비교</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="86" />
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="87" />
        <source>&amp;Open model file…</source>
        <translation>모델 파일 열기(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="89" />
        <source>&amp;Quit</source>
        <translation>끝내기(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="91" />
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="95" />
        <source>&amp;Presentation mode</source>
        <translation>발표 모드(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="97" />
        <source>Zoom &amp;in</source>
        <translation>확대(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="98" />
        <source>Zoom &amp;out</source>
        <translation>축소(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="99" />
        <source>&amp;Reset zoom</source>
        <translation>원래 크기(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="100" />
        <source>&amp;Theme</source>
        <translation>테마(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="103" />
        <location filename="../../tokviz/ui/main_window.py" line="111" />
        <source>Follow &amp;system</source>
        <translation>시스템 설정 따르기(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="103" />
        <source>&amp;Light</source>
        <translation>밝게(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="103" />
        <source>&amp;Dark</source>
        <translation>어둡게(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="109" />
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="117" />
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="118" />
        <source>&amp;About tokviz</source>
        <translation>tokviz 정보(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="136" />
        <source>Open model file</source>
        <translation>모델 파일 열기</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="136" />
        <source>Models (*.model *.tiktoken *.json *.codes *.txt);;All files (*)</source>
        <translation>모델 (*.model *.tiktoken *.json *.codes *.txt);;모든 파일 (*)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="149" />
        <source>Cannot open model</source>
        <translation>모델을 열 수 없습니다</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="152" />
        <source>Added encoder {name} ({size} tokens)</source>
        <translation>인코더 {name} 추가됨 (토큰 {size}개)</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="165" />
        <source>The language changes when tokviz starts again.</source>
        <translation>언어는 tokviz를 다시 시작하면 바뀝니다.</translation>
    </message>
    <message>
        <location filename="../../tokviz/ui/main_window.py" line="203" />
        <source>About tokviz</source>
        <translation>tokviz 정보</translation>
    </message>
</context>
</TS>